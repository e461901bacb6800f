#pragma once
// ASCII case helpers: Redis command names and options are case-insensitive ASCII.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace lockcheck::mock {

constexpr char ascii_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

// ascii_lower on each of eight bytes at once: a byte in 'A'..'Z' gains 0x20, every other byte stays. Each
// byte's sums stay under 0x100, so no carry crosses into its neighbour.
inline std::uint64_t ascii_lower_8(std::uint64_t bytes) {
  constexpr std::uint64_t kOnes = 0x0101010101010101u;
  const std::uint64_t low7 = bytes & (0x7f * kOnes);
  const std::uint64_t above_z = low7 + (0x7f - 'Z') * kOnes;  // high bit set where low7 > 'Z'
  const std::uint64_t from_a = low7 + (0x80 - 'A') * kOnes;   // high bit set where low7 >= 'A'
  const std::uint64_t upper = (from_a ^ above_z) & ~bytes & (0x80 * kOnes);  // and the byte is ASCII
  return bytes | (upper >> 2);
}

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
  const std::size_t length = text.size() < N ? text.size() : N;
  std::size_t i = 0;
  // Eight bytes a step: every EVALSHA lowers its 40-character sha.
  for (; i + 8 <= length; i += 8) {
    std::uint64_t bytes = 0;
    std::memcpy(&bytes, text.data() + i, 8);
    bytes = ascii_lower_8(bytes);
    std::memcpy(buffer + i, &bytes, 8);
  }
  for (; i < length; ++i) buffer[i] = ascii_lower(text[i]);
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
