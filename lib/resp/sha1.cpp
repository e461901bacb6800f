// SHA-1 written from FIPS 180-4, section 6.1.
#include "lockcheck/sha1.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <unordered_map>

namespace lockcheck {
namespace {

std::uint32_t rotate_left(std::uint32_t value, int bits) { return (value << bits) | (value >> (32 - bits)); }

void compress(std::array<std::uint32_t, 5>& state, const unsigned char* block) {
  std::array<std::uint32_t, 80> words{};
  for (int i = 0; i < 16; ++i) {
    words[i] = (std::uint32_t{block[4 * i]} << 24) | (std::uint32_t{block[4 * i + 1]} << 16) |
               (std::uint32_t{block[4 * i + 2]} << 8) | std::uint32_t{block[4 * i + 3]};
  }
  for (int i = 16; i < 80; ++i) words[i] = rotate_left(words[i - 3] ^ words[i - 8] ^ words[i - 14] ^ words[i - 16], 1);

  std::uint32_t a = state[0], b = state[1], c = state[2], d = state[3], e = state[4];
  for (int i = 0; i < 80; ++i) {
    std::uint32_t f = 0, k = 0;
    if (i < 20) {
      f = (b & c) | (~b & d), k = 0x5A827999;
    } else if (i < 40) {
      f = b ^ c ^ d, k = 0x6ED9EBA1;
    } else if (i < 60) {
      f = (b & c) | (b & d) | (c & d), k = 0x8F1BBCDC;
    } else {
      f = b ^ c ^ d, k = 0xCA62C1D6;
    }
    const std::uint32_t next = rotate_left(a, 5) + f + e + k + words[i];
    e = d, d = c, c = rotate_left(b, 30), b = a, a = next;
  }
  state[0] += a, state[1] += b, state[2] += c, state[3] += d, state[4] += e;
}

}  // namespace

std::string sha1_hex(std::string_view data) {
  std::array<std::uint32_t, 5> state{0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
  std::string padded(data);
  const std::uint64_t bit_length = static_cast<std::uint64_t>(data.size()) * 8;
  padded.push_back(static_cast<char>(0x80));
  while (padded.size() % 64 != 56) padded.push_back('\0');
  for (int shift = 56; shift >= 0; shift -= 8) padded.push_back(static_cast<char>((bit_length >> shift) & 0xFF));
  for (std::size_t offset = 0; offset < padded.size(); offset += 64) {
    compress(state, reinterpret_cast<const unsigned char*>(padded.data() + offset));
  }
  static constexpr char digits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(40);
  for (std::uint32_t word : state) {
    for (int shift = 28; shift >= 0; shift -= 4) hex.push_back(digits[(word >> shift) & 0xF]);
  }
  return hex;
}

const std::string& remembered_sha1_hex(std::string_view data) {
  constexpr std::size_t kRemembered = 256;
  struct Hash {
    using is_transparent = void;  // looked up by a string_view, without a copy
    std::size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
  };
  using Known = std::unordered_map<std::string, std::string, Hash, std::equal_to<>>;
  thread_local Known known;
  // The last few bodies looked up, most recent first: a lock sends the same two or three scripts over and over,
  // and comparing a body with one of them costs a tenth of hashing it for the map (map nodes stay put until
  // the map is cleared).
  constexpr std::size_t kRecent = 4;
  thread_local std::array<const Known::value_type*, kRecent> recent{};
  const auto remember = [&](const Known::value_type* entry) -> const std::string& {
    std::size_t at = 0;
    while (at + 1 < kRecent && recent[at] != entry) ++at;  // bounded by kRecent
    for (; at > 0; --at) recent[at] = recent[at - 1];
    recent[0] = entry;
    return entry->second;
  };
  for (const Known::value_type* entry : recent) {
    if (entry != nullptr && entry->first == data) return remember(entry);
  }
  if (const auto found = known.find(data); found != known.end()) return remember(&*found);
  if (known.size() >= kRemembered) {
    known.clear();
    recent.fill(nullptr);
  }
  return remember(&*known.emplace(std::string(data), sha1_hex(data)).first);
}

}  // namespace lockcheck
