#pragma once
// Redis's long double arithmetic for INCRBYFLOAT and HINCRBYFLOAT: string2ld (strtold over the whole
// string, no leading space, no NaN, no overflow, at most 5 KiB) and ld2string's human mode ("%.17Lf" with
// trailing zeros and point removed, "-0" -> "0"), on the x86-64 80-bit long double as redis-server uses it.
#include <optional>
#include <string>
#include <string_view>

namespace lockcheck::mock {

std::optional<long double> parse_long_double(std::string_view text);
std::string format_long_double_human(long double value);

}  // namespace lockcheck::mock
