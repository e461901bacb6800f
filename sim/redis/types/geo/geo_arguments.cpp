#include "redis/types/geo/geo_arguments.hpp"

#include <cmath>
#include <cstdio>

#include "redis/command_table/errors.hpp"
#include "redis/util/long_double.hpp"
#include "redis/util/numbers.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock::geo {
namespace {

Parsed<double> parse_number(const std::string& text, std::string_view error) {
  const std::optional<double> value = parse_double(text);
  if (!value) return err::reply(error);
  return *value;
}

}  // namespace

Parsed<LonLat> parse_lonlat(const std::string& longitude, const std::string& latitude) {
  LonLat point;
  const Parsed<double> x = parse_number(longitude, err::kNotFloat);
  if (const Reply* refused = std::get_if<Reply>(&x)) return *refused;
  const Parsed<double> y = parse_number(latitude, err::kNotFloat);
  if (const Reply* refused = std::get_if<Reply>(&y)) return *refused;
  point.longitude = std::get<double>(x);
  point.latitude = std::get<double>(y);
  if (point.longitude < kLongitudeMin || point.longitude > kLongitudeMax || point.latitude < kLatitudeMin ||
      point.latitude > kLatitudeMax) {
    char text[128];
    std::snprintf(text, sizeof text, "ERR invalid longitude,latitude pair %f,%f", point.longitude, point.latitude);
    return Reply::error(text);
  }
  return point;
}

Parsed<double> parse_unit(const std::string& unit) {
  if (iequals(unit, "m")) return 1.0;
  if (iequals(unit, "km")) return 1000.0;
  if (iequals(unit, "ft")) return 0.3048;
  if (iequals(unit, "mi")) return 1609.34;
  return Reply::error("ERR unsupported unit provided. please use M, KM, FT, MI");
}

Parsed<Distance> parse_radius(const std::string& radius, const std::string& unit) {
  const Parsed<double> value = parse_number(radius, "ERR need numeric radius");
  if (const Reply* refused = std::get_if<Reply>(&value)) return *refused;
  if (std::get<double>(value) < 0) return Reply::error("ERR radius cannot be negative");
  const Parsed<double> metres = parse_unit(unit);
  if (const Reply* refused = std::get_if<Reply>(&metres)) return *refused;
  return Distance{std::get<double>(value), std::get<double>(metres)};
}

Parsed<Box> parse_box(const std::string& width, const std::string& height, const std::string& unit) {
  const Parsed<double> w = parse_number(width, "ERR need numeric width");
  if (const Reply* refused = std::get_if<Reply>(&w)) return *refused;
  const Parsed<double> h = parse_number(height, "ERR need numeric height");
  if (const Reply* refused = std::get_if<Reply>(&h)) return *refused;
  if (std::get<double>(h) < 0 || std::get<double>(w) < 0) return Reply::error("ERR height or width cannot be negative");
  const Parsed<double> metres = parse_unit(unit);
  if (const Reply* refused = std::get_if<Reply>(&metres)) return *refused;
  return Box{std::get<double>(w), std::get<double>(h), std::get<double>(metres)};
}

Reply distance_reply(double distance) {
  // Redis's fixedpoint_d2string with 4 digits: round to a whole number of ten-thousandths, then print it.
  if (distance == 0) return Reply::bulk("0.0000");
  const long long scaled = std::llrint(distance * 10000.0);
  const bool negative = scaled < 0;
  const unsigned long long magnitude =
      negative ? static_cast<unsigned long long>(-(scaled + 1)) + 1 : static_cast<unsigned long long>(scaled);
  char fraction[8];
  std::snprintf(fraction, sizeof fraction, "%04llu", magnitude % 10000);
  return Reply::bulk((negative ? "-" : "") + std::to_string(magnitude / 10000) + "." + fraction);
}

Reply coordinate_reply(double degrees) {
  return Reply::double_reply(format_long_double_human(static_cast<long double>(degrees)));
}

Reply position_reply(LonLat point) {
  return Reply::array({coordinate_reply(point.longitude), coordinate_reply(point.latitude)});
}

double score_of(LonLat point) {
  const HashBits hash = encode(point.longitude, point.latitude, kStepMax).value_or(HashBits{});
  return static_cast<double>(align52(hash));
}

}  // namespace lockcheck::mock::geo
