#include "redis/types/geo/geo_shape.hpp"

#include <cmath>

namespace lockcheck::mock::geo {
namespace {

constexpr double kDegreesToRadians = M_PI / 180.0;
constexpr double kEarthRadiusM = 6372797.560856;
constexpr double kMercatorMax = 20037726.37;

double radians(double degrees) { return degrees * kDegreesToRadians; }
double degrees(double radians) { return radians / kDegreesToRadians; }

double latitude_distance_m(double latitude1, double latitude2) {
  return kEarthRadiusM * std::fabs(radians(latitude2) - radians(latitude1));
}

// Cell size: halve the Mercator width until it is below the range, then two steps coarser; coarser still near
// the poles, where cells narrow.
std::uint8_t estimate_step(double range_m, double latitude) {
  if (range_m == 0) return 26;
  int step = 1;
  for (int guard = 0; range_m < kMercatorMax && guard < 2048; ++guard) {
    range_m *= 2;
    step++;
  }
  step -= 2;
  if (latitude > 66 || latitude < -66) {
    step--;
    if (latitude > 80 || latitude < -80) step--;
  }
  if (step < 1) step = 1;
  if (step > 26) step = 26;
  return static_cast<std::uint8_t>(step);
}

struct Bounds {
  double min_longitude, min_latitude, max_longitude, max_latitude;
};

Bounds bounding_box(const Shape& shape) {
  const bool circle = shape.kind == Shape::Kind::circle;
  const double height = shape.metres_per_unit * (circle ? shape.radius : shape.height / 2);
  const double width = shape.metres_per_unit * (circle ? shape.radius : shape.width / 2);
  const double longitude = shape.centre.longitude;
  const double latitude = shape.centre.latitude;
  const double latitude_delta = degrees(height / kEarthRadiusM);
  const double longitude_delta_top = degrees(width / kEarthRadiusM / std::cos(radians(latitude + latitude_delta)));
  const double longitude_delta_bottom = degrees(width / kEarthRadiusM / std::cos(radians(latitude - latitude_delta)));
  const bool southern = latitude < 0;
  return Bounds{southern ? longitude - longitude_delta_bottom : longitude - longitude_delta_top, latitude - latitude_delta,
                southern ? longitude + longitude_delta_bottom : longitude + longitude_delta_top, latitude + latitude_delta};
}

}  // namespace

double distance_m(double longitude1, double latitude1, double longitude2, double latitude2) {
  const double longitude1_r = radians(longitude1);
  const double longitude2_r = radians(longitude2);
  const double v = std::sin((longitude2_r - longitude1_r) / 2);
  if (v == 0.0) return latitude_distance_m(latitude1, latitude2);
  const double latitude1_r = radians(latitude1);
  const double latitude2_r = radians(latitude2);
  const double u = std::sin((latitude2_r - latitude1_r) / 2);
  const double a = u * u + std::cos(latitude1_r) * std::cos(latitude2_r) * v * v;
  return 2.0 * kEarthRadiusM * std::asin(std::sqrt(a));
}

std::optional<double> distance_if_inside(const Shape& shape, LonLat point) {
  const LonLat& centre = shape.centre;
  if (shape.kind == Shape::Kind::circle) {
    const double distance = distance_m(centre.longitude, centre.latitude, point.longitude, point.latitude);
    if (distance > shape.radius * shape.metres_per_unit) return std::nullopt;
    return distance;
  }
  // Latitude first: the cheaper test.
  if (latitude_distance_m(point.latitude, centre.latitude) > shape.height * shape.metres_per_unit / 2) return std::nullopt;
  const double longitude_distance = distance_m(point.longitude, point.latitude, centre.longitude, point.latitude);
  if (longitude_distance > shape.width * shape.metres_per_unit / 2) return std::nullopt;
  return distance_m(centre.longitude, centre.latitude, point.longitude, point.latitude);
}

std::array<HashBits, 9> covering_cells(const Shape& shape) {
  const Bounds bounds = bounding_box(shape);
  const double longitude = shape.centre.longitude;
  const double latitude = shape.centre.latitude;
  double radius_m = shape.kind == Shape::Kind::circle
                        ? shape.radius
                        : std::sqrt((shape.width / 2) * (shape.width / 2) + (shape.height / 2) * (shape.height / 2));
  radius_m *= shape.metres_per_unit;
  std::uint8_t step = estimate_step(radius_m, latitude);
  HashBits hash = encode(longitude, latitude, step).value_or(HashBits{0, step});
  Neighbors around = neighbors_of(hash);
  std::optional<Area> area = decode(hash);
  // The neighbours must reach past the bounding box; if one falls short, one step coarser.
  const Area north = decode(around.north).value_or(Area{});
  const Area south = decode(around.south).value_or(Area{});
  const Area east = decode(around.east).value_or(Area{});
  const Area west = decode(around.west).value_or(Area{});
  const bool too_fine = north.latitude.max < bounds.max_latitude || south.latitude.min > bounds.min_latitude ||
                        east.longitude.max < bounds.max_longitude || west.longitude.min > bounds.min_longitude;
  if (step > 1 && too_fine) {
    step--;
    hash = encode(longitude, latitude, step).value_or(HashBits{0, step});
    around = neighbors_of(hash);
    area = decode(hash);
  }
  // Neighbours beyond the bounding box on a side hold nothing in range: dropped.
  if (step >= 2 && area) {
    if (area->latitude.min < bounds.min_latitude) around.south = around.south_west = around.south_east = HashBits{};
    if (area->latitude.max > bounds.max_latitude) around.north = around.north_east = around.north_west = HashBits{};
    if (area->longitude.min < bounds.min_longitude) around.west = around.south_west = around.north_west = HashBits{};
    if (area->longitude.max > bounds.max_longitude) around.east = around.south_east = around.north_east = HashBits{};
  }
  return {hash, around.north, around.south, around.east, around.west, around.north_east, around.north_west,
          around.south_east, around.south_west};
}

}  // namespace lockcheck::mock::geo
