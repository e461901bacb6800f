#pragma once
// ASCII case helpers: Redis command names and options are case-insensitive ASCII.
#include <string>
#include <string_view>

namespace lockcheck::mock {

inline char ascii_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

inline std::string to_upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
  return out;
}

inline std::string to_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

// Lower-cases a command name into `buffer` without allocating; names longer than the buffer are cut,
// which only matters for unknown commands (they fail the lookup either way).
template <std::size_t N>
std::string_view lower_into(std::string_view text, char (&buffer)[N]) {
  std::size_t length = text.size() < N ? text.size() : N;
  for (std::size_t i = 0; i < length; ++i) buffer[i] = ascii_lower(text[i]);
  return std::string_view(buffer, length);
}

inline bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  }
  return true;
}

}  // namespace lockcheck::mock
