#include "redis/util/long_double.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace lockcheck::mock {
namespace {
constexpr std::size_t kMaxLongDoubleChars = 5 * 1024;  // MAX_LONG_DOUBLE_CHARS
}  // namespace

std::optional<long double> parse_long_double(std::string_view text) {
  if (text.empty() || text.size() >= kMaxLongDoubleChars) return std::nullopt;
  if (std::isspace(static_cast<unsigned char>(text[0]))) return std::nullopt;
  const std::string copy(text);  // strtold needs a terminator
  char* end = nullptr;
  errno = 0;
  const long double value = std::strtold(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size()) return std::nullopt;
  if (errno == ERANGE && (std::isinf(value) || std::fpclassify(value) == FP_ZERO)) return std::nullopt;
  if (errno == EINVAL || std::isnan(value)) return std::nullopt;
  return value;
}

std::string format_long_double_human(long double value) {
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[kMaxLongDoubleChars];
  const int written = std::snprintf(buffer, sizeof buffer, "%.17Lf", value);
  if (written <= 0 || static_cast<std::size_t>(written) + 1 > sizeof buffer) return {};
  std::string text(buffer, static_cast<std::size_t>(written));
  if (text.find('.') != std::string::npos) {
    // Bounded by the text's length: each step drops one character.
    while (!text.empty() && text.back() == '0') text.pop_back();
    if (!text.empty() && text.back() == '.') text.pop_back();
  }
  if (text == "-0") text = "0";
  return text;
}

}  // namespace lockcheck::mock
