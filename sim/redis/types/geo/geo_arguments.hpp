#pragma once
// What the GEO commands share: reading a longitude/latitude pair, a unit, a radius or box, as Redis 7.0's geo.c
// does (its error texts verbatim), and the two number formats of its replies.
#include <optional>
#include <string>
#include <variant>

#include "redis/types/geo/geohash.hpp"
#include "lockcheck/reply.hpp"

namespace lockcheck::mock::geo {

// A parsed value, or the error reply that refused it.
template <typename T>
using Parsed = std::variant<T, Reply>;

// Two arguments, longitude then latitude, inside the Mercator square.
Parsed<LonLat> parse_lonlat(const std::string& longitude, const std::string& latitude);
// m, km, ft, mi (any case): metres per unit.
Parsed<double> parse_unit(const std::string& unit);

struct Distance {
  double value = 0;
  double metres_per_unit = 1;
};
// <radius> <unit>
Parsed<Distance> parse_radius(const std::string& radius, const std::string& unit);
struct Box {
  double width = 0, height = 0, metres_per_unit = 1;
};
// <width> <height> <unit>
Parsed<Box> parse_box(const std::string& width, const std::string& height, const std::string& unit);

// A distance with four decimals ("56.4413"), a bulk string on both protocols.
Reply distance_reply(double distance);
// A coordinate in ld2string's human form ("13.36138933897018433"): bulk on RESP2, double on RESP3.
Reply coordinate_reply(double degrees);
// The [longitude, latitude] pair of a point.
Reply position_reply(LonLat point);

// The 52-bit sorted-set score of a point.
double score_of(LonLat point);

}  // namespace lockcheck::mock::geo
