#include "redis/util/numbers.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace lockcheck::mock {

std::optional<std::int64_t> parse_int64(std::string_view text) {
  // Mirrors Redis's string2ll: at most 20 characters, "0" alone, otherwise an optional '-' and a
  // non-zero leading digit. Everything else (spaces, '+', leading zeros, "-0") is rejected.
  if (text.empty() || text.size() > 20) return std::nullopt;
  if (text == "0") return 0;
  std::size_t pos = 0;
  bool negative = false;
  if (text[0] == '-') {
    negative = true;
    pos = 1;
    if (text.size() == 1) return std::nullopt;
  }
  if (text[pos] < '1' || text[pos] > '9') return std::nullopt;
  std::uint64_t magnitude = 0;
  for (; pos < text.size(); ++pos) {
    char c = text[pos];
    if (c < '0' || c > '9') return std::nullopt;
    std::uint64_t digit = static_cast<std::uint64_t>(c - '0');
    if (magnitude > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) return std::nullopt;
    magnitude = magnitude * 10 + digit;
  }
  constexpr std::uint64_t max_positive = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (negative) {
    if (magnitude > max_positive + 1) return std::nullopt;
    if (magnitude == max_positive + 1) return std::numeric_limits<std::int64_t>::min();
    return -static_cast<std::int64_t>(magnitude);
  }
  if (magnitude > max_positive) return std::nullopt;
  return static_cast<std::int64_t>(magnitude);
}

std::optional<double> parse_double(std::string_view text) {
  if (text.empty() || text.size() > 5000) return std::nullopt;
  if (std::isspace(static_cast<unsigned char>(text[0]))) return std::nullopt;
  std::string copy(text);  // strtod needs a terminator; the value is short
  char* end = nullptr;
  errno = 0;
  double value = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size()) return std::nullopt;
  if (errno == ERANGE && (std::isinf(value) || value == 0.0)) return std::nullopt;
  if (std::isnan(value)) return std::nullopt;
  return value;
}

std::string format_double(double value) {
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[64];
  int length = std::snprintf(buffer, sizeof buffer, "%.17g", value);
  return std::string(buffer, static_cast<std::size_t>(length));
}

std::string format_lua51_number(double value) {
  char buffer[64];
  int length = std::snprintf(buffer, sizeof buffer, "%.14g", value);
  return std::string(buffer, static_cast<std::size_t>(length));
}

}  // namespace lockcheck::mock
