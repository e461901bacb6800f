#include "lockcheck/entropy.hpp"

#include <sys/random.h>

#include <cerrno>
#include <stdexcept>
#include <system_error>

namespace lockcheck {

std::string Entropy::token_hex() {
  static constexpr char digits[] = "0123456789abcdef";
  std::string token;
  token.reserve(32);
  for (int word = 0; word < 2; ++word) {
    const std::uint64_t bits = next_u64();
    for (int shift = 60; shift >= 0; shift -= 4) token.push_back(digits[(bits >> shift) & 0xF]);
  }
  return token;
}

std::uint64_t Entropy::uniform(std::uint64_t bound) {
  if (bound == 0) return 0;
  // Rejection sampling: draws above the largest multiple of bound would bias small values.
  const std::uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
  for (int attempt = 0; attempt < 64; ++attempt) {
    const std::uint64_t draw = next_u64();
    if (draw < limit) return draw % bound;
  }
  return next_u64() % bound;  // probability of reaching here is below 2^-64
}

std::uint64_t OsEntropy::next_u64() {
  std::uint64_t value = 0;
  auto* out = reinterpret_cast<char*>(&value);
  std::size_t filled = 0;
  for (int attempt = 0; attempt < 16 && filled < sizeof value; ++attempt) {
    const ssize_t got = getrandom(out + filled, sizeof value - filled, 0);
    if (got > 0) {
      filled += static_cast<std::size_t>(got);
    } else if (got < 0 && errno != EINTR) {
      throw std::system_error(errno, std::generic_category(), "getrandom");
    }
  }
  if (filled < sizeof value) throw std::runtime_error("getrandom: could not fill 8 bytes");
  return value;
}

}  // namespace lockcheck
