#pragma once
// Redis's geohash: longitude and latitude interleaved into 2*step bits (26 steps = the 52-bit integer a GEO
// member's sorted-set score holds), over longitude [-180, 180] and latitude [-85.05112878, 85.05112878] (the
// Web Mercator square; GEOHASH alone re-encodes over the standard [-90, 90]). Same double arithmetic as Redis
// 7.0's geohash.c, so decoded coordinates and neighbouring cells come out bit for bit.
#include <cstdint>
#include <optional>

namespace lockcheck::mock::geo {

inline constexpr double kLongitudeMin = -180, kLongitudeMax = 180;
inline constexpr double kLatitudeMin = -85.05112878, kLatitudeMax = 85.05112878;
inline constexpr std::uint8_t kStepMax = 26;  // 52 bits: what fits a double's mantissa exactly

struct Range {
  double min = 0, max = 0;
};
inline constexpr Range kLongitudes{kLongitudeMin, kLongitudeMax};
inline constexpr Range kLatitudes{kLatitudeMin, kLatitudeMax};

// A cell: `bits` interleaves latitude (even bits) and longitude (odd bits); step 0 and bits 0 is "no cell".
struct HashBits {
  std::uint64_t bits = 0;
  std::uint8_t step = 0;
  bool is_zero() const { return bits == 0 && step == 0; }
  friend bool operator==(const HashBits&, const HashBits&) = default;
};

struct Area {
  Range longitude, latitude;
};

struct LonLat {
  double longitude = 0, latitude = 0;
};

// The cell of a point at `step` bits per axis, or none when it lies outside the ranges (or step is not 1..32).
std::optional<HashBits> encode(Range longitudes, Range latitudes, double longitude, double latitude, std::uint8_t step);
inline std::optional<HashBits> encode(double longitude, double latitude, std::uint8_t step) {
  return encode(kLongitudes, kLatitudes, longitude, latitude, step);
}
// The bounds of a cell; none for the zero cell.
std::optional<Area> decode(Range longitudes, Range latitudes, HashBits hash);
inline std::optional<Area> decode(HashBits hash) { return decode(kLongitudes, kLatitudes, hash); }
// A cell's centre, clamped to the ranges.
std::optional<LonLat> decode_to_lonlat(HashBits hash);
// A 52-bit sorted-set score back to its point (the score is truncated to an integer as Redis does).
std::optional<LonLat> decode_score(double score);

// The cell's bits shifted up to 52 (the score range of every point inside it starts there).
std::uint64_t align52(HashBits hash);

// The eight cells around one, in Redis's order of use: north, south, east, west, NE, NW, SE, SW.
struct Neighbors {
  HashBits north, south, east, west, north_east, north_west, south_east, south_west;
};
Neighbors neighbors_of(HashBits hash);

}  // namespace lockcheck::mock::geo
