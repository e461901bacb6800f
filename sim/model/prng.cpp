#include "model/prng.hpp"

namespace lockcheck::sim {
namespace {

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

Prng::Prng(std::uint64_t seed) {
  std::uint64_t mix = seed;
  for (auto& word : state_) word = splitmix64(mix);
}

std::uint64_t Prng::next() {
  const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
  const std::uint64_t t = state_[1] << 17;
  state_[2] ^= state_[0];
  state_[3] ^= state_[1];
  state_[1] ^= state_[2];
  state_[0] ^= state_[3];
  state_[2] ^= t;
  state_[3] = rotl(state_[3], 45);
  return result;
}

std::uint64_t Prng::below(std::uint64_t bound) {
  if (bound == 0) return 0;
  const std::uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
  for (int attempt = 0; attempt < 64; ++attempt) {
    const std::uint64_t draw = next();
    if (draw < limit) return draw % bound;
  }
  return next() % bound;
}

std::int64_t Prng::between(std::int64_t low, std::int64_t high) {
  if (high <= low) return low;
  return low + static_cast<std::int64_t>(below(static_cast<std::uint64_t>(high - low) + 1));
}

bool Prng::chance_ppm(std::uint32_t parts_per_million) {
  if (parts_per_million == 0) return false;
  return below(1000000) < parts_per_million;
}

std::uint64_t derive_seed(std::uint64_t root_seed, std::string_view name) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;  // FNV-1a
  for (unsigned char c : name) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  std::uint64_t state = root_seed ^ hash;
  return splitmix64(state);
}

}  // namespace lockcheck::sim
