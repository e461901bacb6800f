#include "monitor_line.hpp"

#include <cctype>
#include <charconv>

namespace lockcheck::redis_backend {
namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

template <typename Number>
bool parse_number(std::string_view text, Number& out) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
  return error == std::errc() && end == text.data() + text.size();
}

// One quoted argument starting at text[at] == '"'; advances `at` past the closing quote.
std::optional<std::string> quoted(std::string_view text, std::size_t& at) {
  if (at >= text.size() || text[at] != '"') return std::nullopt;
  std::string out;
  for (std::size_t i = at + 1; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      at = i + 1;
      return out;
    }
    if (c != '\\') {
      out.push_back(c);
      continue;
    }
    if (++i >= text.size()) return std::nullopt;
    switch (text[i]) {
      case '"': out.push_back('"'); break;
      case '\\': out.push_back('\\'); break;
      case 'n': out.push_back('\n'); break;
      case 'r': out.push_back('\r'); break;
      case 't': out.push_back('\t'); break;
      case 'a': out.push_back('\a'); break;
      case 'b': out.push_back('\b'); break;
      case 'x': {
        const int high = i + 2 < text.size() ? hex_digit(text[i + 1]) : -1;
        const int low = i + 2 < text.size() ? hex_digit(text[i + 2]) : -1;
        if (high < 0 || low < 0) return std::nullopt;
        out.push_back(static_cast<char>(high * 16 + low));
        i += 2;
        break;
      }
      default: return std::nullopt;  // sdscatrepr writes no other escape
    }
  }
  return std::nullopt;  // no closing quote
}

}  // namespace

std::string MonitorLine::name() const {
  if (argv.empty()) return {};
  std::string upper = argv.front();
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return upper;
}

std::optional<MonitorLine> parse_monitor_line(std::string_view text) {
  MonitorLine line;
  // <seconds>.<6 digits> [<db> <source>] "arg" ...
  const std::size_t dot = text.find('.');
  const std::size_t open = text.find(" [");
  if (dot == std::string_view::npos || open == std::string_view::npos || dot > open || open - dot != 7) return std::nullopt;
  std::int64_t seconds = 0, micros = 0;
  if (!parse_number(text.substr(0, dot), seconds) || !parse_number(text.substr(dot + 1, 6), micros)) return std::nullopt;
  line.unix_us = seconds * 1'000'000 + micros;
  const std::size_t space = text.find(' ', open + 2);
  const std::size_t close = text.find("] ", open + 2);
  if (space == std::string_view::npos || close == std::string_view::npos || space > close) return std::nullopt;
  if (!parse_number(text.substr(open + 2, space - open - 2), line.db)) return std::nullopt;
  line.source = std::string(text.substr(space + 1, close - space - 1));
  std::size_t at = close + 2;
  while (at < text.size()) {
    std::optional<std::string> argument = quoted(text, at);
    if (!argument) return std::nullopt;
    line.argv.push_back(std::move(*argument));
    if (at < text.size()) {
      if (text[at] != ' ') return std::nullopt;
      ++at;
    }
  }
  if (line.argv.empty() || line.source.empty()) return std::nullopt;
  return line;
}

}  // namespace lockcheck::redis_backend
