#pragma once
// Number parsing and formatting with Redis's exact rules: its strict string2ll (no "+1", " 1", "01", "-0"),
// its float parsing for scores, and "%.17g" for doubles (7.0 replies and redis.call arguments).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lockcheck::mock {

std::optional<std::int64_t> parse_int64(std::string_view text);

// Redis's getDoubleFromObject: strtod over the whole string, no leading space, no NaN, no overflow.
std::optional<double> parse_double(std::string_view text);

// Redis 7.0 double formatting: "%.17g", with "inf" / "-inf".
std::string format_double(double value);

// Lua 5.1's tostring for numbers: "%.14g" of the double.
std::string format_lua51_number(double value);

}  // namespace lockcheck::mock
