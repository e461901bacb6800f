#include "redis/types/geo/geohash.hpp"

namespace lockcheck::mock::geo {
namespace {

// Spreads the 32 bits of each input over the even (x) and odd (y) positions of the result.
std::uint64_t interleave(std::uint32_t x_low, std::uint32_t y_low) {
  constexpr std::uint64_t kMasks[] = {0x5555555555555555ULL, 0x3333333333333333ULL, 0x0F0F0F0F0F0F0F0FULL,
                                      0x00FF00FF00FF00FFULL, 0x0000FFFF0000FFFFULL};
  constexpr unsigned kShifts[] = {1, 2, 4, 8, 16};
  std::uint64_t x = x_low;
  std::uint64_t y = y_low;
  for (int i = 4; i >= 0; --i) {
    x = (x | (x << kShifts[i])) & kMasks[i];
    y = (y | (y << kShifts[i])) & kMasks[i];
  }
  return x | (y << 1);
}

// The inverse: even bits to the low 32, odd bits to the high 32.
std::uint64_t deinterleave(std::uint64_t interleaved) {
  constexpr std::uint64_t kMasks[] = {0x5555555555555555ULL, 0x3333333333333333ULL, 0x0F0F0F0F0F0F0F0FULL,
                                      0x00FF00FF00FF00FFULL, 0x0000FFFF0000FFFFULL, 0x00000000FFFFFFFFULL};
  constexpr unsigned kShifts[] = {0, 1, 2, 4, 8, 16};
  std::uint64_t x = interleaved;
  std::uint64_t y = interleaved >> 1;
  for (int i = 0; i < 6; ++i) {
    x = (x | (x >> kShifts[i])) & kMasks[i];
    y = (y | (y >> kShifts[i])) & kMasks[i];
  }
  return x | (y << 32);
}

bool range_is_zero(Range range) { return range.min == 0 && range.max == 0; }

// Moves a cell one step along an axis; the other axis's bits are kept. Wraps around at the edges as Redis's
// integer arithmetic does.
void move(HashBits& hash, int direction, std::uint64_t axis_mask, std::uint64_t other_mask) {
  if (direction == 0) return;
  std::uint64_t axis = hash.bits & axis_mask;
  const std::uint64_t other = hash.bits & other_mask;
  const unsigned unused = 64u - hash.step * 2u;
  const std::uint64_t fill = other_mask >> unused;
  if (direction > 0) {
    axis = axis + (fill + 1);
  } else {
    axis = axis | fill;
    axis = axis - (fill + 1);
  }
  axis &= axis_mask >> unused;
  hash.bits = axis | other;
}

constexpr std::uint64_t kOddBits = 0xaaaaaaaaaaaaaaaaULL;   // longitude
constexpr std::uint64_t kEvenBits = 0x5555555555555555ULL;  // latitude

HashBits moved(HashBits hash, int east, int north) {
  move(hash, east, kOddBits, kEvenBits);
  move(hash, north, kEvenBits, kOddBits);
  return hash;
}

}  // namespace

std::optional<HashBits> encode(Range longitudes, Range latitudes, double longitude, double latitude, std::uint8_t step) {
  if (step > 32 || step == 0 || range_is_zero(latitudes) || range_is_zero(longitudes)) return std::nullopt;
  if (longitude > kLongitudeMax || longitude < kLongitudeMin || latitude > kLatitudeMax || latitude < kLatitudeMin) {
    return std::nullopt;
  }
  if (latitude < latitudes.min || latitude > latitudes.max || longitude < longitudes.min || longitude > longitudes.max) {
    return std::nullopt;
  }
  double latitude_offset = (latitude - latitudes.min) / (latitudes.max - latitudes.min);
  double longitude_offset = (longitude - longitudes.min) / (longitudes.max - longitudes.min);
  latitude_offset *= static_cast<double>(1ULL << step);
  longitude_offset *= static_cast<double>(1ULL << step);
  return HashBits{interleave(static_cast<std::uint32_t>(latitude_offset), static_cast<std::uint32_t>(longitude_offset)),
                  step};
}

std::optional<Area> decode(Range longitudes, Range latitudes, HashBits hash) {
  if (hash.is_zero() || range_is_zero(latitudes) || range_is_zero(longitudes)) return std::nullopt;
  const std::uint64_t separated = deinterleave(hash.bits);
  const double latitude_scale = latitudes.max - latitudes.min;
  const double longitude_scale = longitudes.max - longitudes.min;
  const auto latitude_cell = static_cast<std::uint32_t>(separated);
  const auto longitude_cell = static_cast<std::uint32_t>(separated >> 32);
  const auto cells = static_cast<double>(1ULL << hash.step);
  Area area;
  area.latitude.min = latitudes.min + (latitude_cell * 1.0 / cells) * latitude_scale;
  area.latitude.max = latitudes.min + ((latitude_cell + 1) * 1.0 / cells) * latitude_scale;
  area.longitude.min = longitudes.min + (longitude_cell * 1.0 / cells) * longitude_scale;
  area.longitude.max = longitudes.min + ((longitude_cell + 1) * 1.0 / cells) * longitude_scale;
  return area;
}

std::optional<LonLat> decode_to_lonlat(HashBits hash) {
  const std::optional<Area> area = decode(hash);
  if (!area) return std::nullopt;
  LonLat point;
  point.longitude = (area->longitude.min + area->longitude.max) / 2;
  if (point.longitude > kLongitudeMax) point.longitude = kLongitudeMax;
  if (point.longitude < kLongitudeMin) point.longitude = kLongitudeMin;
  point.latitude = (area->latitude.min + area->latitude.max) / 2;
  if (point.latitude > kLatitudeMax) point.latitude = kLatitudeMax;
  if (point.latitude < kLatitudeMin) point.latitude = kLatitudeMin;
  return point;
}

std::optional<LonLat> decode_score(double score) {
  // Redis casts the score to uint64_t; a score outside its range (a sorted set not written by GEOADD) converts
  // as x86-64 does, rather than the undefined behaviour of a plain cast.
  constexpr double kTwo63 = 9223372036854775808.0;
  constexpr std::uint64_t kHighBit = 1ULL << 63;
  std::uint64_t bits = kHighBit;
  if (score >= kTwo63) {
    const double low = score - kTwo63;
    bits = (low < kTwo63 ? static_cast<std::uint64_t>(static_cast<std::int64_t>(low)) : kHighBit) ^ kHighBit;
  } else if (score > -kTwo63) {
    bits = static_cast<std::uint64_t>(static_cast<std::int64_t>(score));
  }
  return decode_to_lonlat(HashBits{bits, kStepMax});
}

std::uint64_t align52(HashBits hash) { return hash.bits << (52 - hash.step * 2); }

Neighbors neighbors_of(HashBits hash) {
  return Neighbors{.north = moved(hash, 0, 1),
                   .south = moved(hash, 0, -1),
                   .east = moved(hash, 1, 0),
                   .west = moved(hash, -1, 0),
                   .north_east = moved(hash, 1, 1),
                   .north_west = moved(hash, -1, 1),
                   .south_east = moved(hash, 1, -1),
                   .south_west = moved(hash, -1, -1)};
}

}  // namespace lockcheck::mock::geo
