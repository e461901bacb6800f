#pragma once
// The search side of GEO, as Redis 7.0's geohash_helper.c: great-circle distance on a sphere of the WGS-84 mean
// radius, the shapes GEOSEARCH/GEORADIUS look in (a circle or an axis-aligned box around a centre), and the
// nine geohash cells (centre and neighbours, some dropped) whose score ranges cover a shape.
#include <array>
#include <optional>

#include "redis/types/geo/geohash.hpp"

namespace lockcheck::mock::geo {

// Metres between two points (haversine); along a meridian when the longitudes are equal.
double distance_m(double longitude1, double latitude1, double longitude2, double latitude2);

struct Shape {
  enum class Kind { circle, box } kind = Kind::circle;
  LonLat centre;
  double radius = 0;              // circle, in `unit`s
  double width = 0, height = 0;   // box, in `unit`s
  double metres_per_unit = 1;
};

// The distance from the centre (metres) when `point` lies inside the shape.
std::optional<double> distance_if_inside(const Shape& shape, LonLat point);

// The cells to scan, in Redis's order (centre, N, S, E, W, NE, NW, SE, SW); a dropped one is zero.
std::array<HashBits, 9> covering_cells(const Shape& shape);

}  // namespace lockcheck::mock::geo
