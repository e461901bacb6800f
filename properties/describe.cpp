#include "describe.hpp"

#include <fmt/format.h>

namespace lockcheck::properties {

namespace {

// "<whole>.<fraction>" with the fraction's trailing zeros dropped; digits is the fraction's width.
std::string decimal(std::int64_t value, std::int64_t scale, int digits) {
  bool negative = value < 0;
  std::uint64_t magnitude = negative ? 0 - static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value);
  auto unit = static_cast<std::uint64_t>(scale);
  std::string text = fmt::format("{}{}", negative ? "-" : "", magnitude / unit);
  std::uint64_t fraction = magnitude % unit;
  if (fraction != 0) {
    std::string digits_text = fmt::format("{:0{}}", fraction, digits);
    while (!digits_text.empty() && digits_text.back() == '0') digits_text.pop_back();
    text += "." + digits_text;
  }
  return text;
}

}  // namespace

std::string format_time_us(std::int64_t t_us) { return decimal(t_us, 1'000'000, 6) + "s"; }

std::string format_duration_us(std::int64_t duration_us) { return decimal(duration_us, 1'000, 3) + " ms"; }

std::string short_token(std::string_view token) {
  if (token.empty()) return "\"\"";
  if (token.size() <= 8) return std::string(token);
  return std::string(token.substr(0, 8)) + "..";
}

}  // namespace lockcheck::properties
