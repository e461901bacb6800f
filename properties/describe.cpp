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

namespace {

constexpr std::size_t kShortTokenChars = 8;   // enough to tell random tokens apart
constexpr std::size_t kWholeTokenChars = 16;  // a token this short (a timestamp, "p0-0-1") is shown whole

std::string first_chars(std::string_view token, std::size_t chars) {
  if (token.size() <= chars) return std::string(token);
  return std::string(token.substr(0, chars)) + "..";
}

}  // namespace

std::string short_token(std::string_view token) {
  if (token.empty()) return "\"\"";
  if (token.size() <= kWholeTokenChars) return std::string(token);
  return first_chars(token, kShortTokenChars);
}

std::pair<std::string, std::string> short_tokens(std::string_view a, std::string_view b) {
  std::pair<std::string, std::string> shown{short_token(a), short_token(b)};
  if (shown.first != shown.second || a == b) return shown;
  // They read alike: show both up to and including their first differing character.
  std::size_t differ = 0;
  while (differ < a.size() && differ < b.size() && a[differ] == b[differ]) ++differ;
  return {first_chars(a, differ + 1), first_chars(b, differ + 1)};
}

}  // namespace lockcheck::properties
