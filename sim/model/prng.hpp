#pragma once
// The simulator's only source of randomness: xoshiro256** seeded through splitmix64, integer-only
// distributions (no floating point in any draw, so a seed gives the same run on every machine), and
// per-component sub-seeds derived from names so that adding a fault source leaves the others' draws alone.
#include <cstdint>
#include <string_view>

#include "lockcheck/entropy.hpp"

namespace lockcheck::sim {

class Prng {
 public:
  explicit Prng(std::uint64_t seed);
  std::uint64_t next();
  // Uniform in [0, bound); 0 when bound is 0.
  std::uint64_t below(std::uint64_t bound);
  // Uniform in [low, high] (inclusive); low when high < low.
  std::int64_t between(std::int64_t low, std::int64_t high);
  // True with probability parts_per_million / 1e6.
  bool chance_ppm(std::uint32_t parts_per_million);

 private:
  std::uint64_t state_[4];
};

// A seed for the component called `name`, independent of every other name's.
std::uint64_t derive_seed(std::uint64_t root_seed, std::string_view name);

// The Entropy seam for simulated processes: tokens and jitter from the run's seed.
class SeededEntropy final : public Entropy {
 public:
  explicit SeededEntropy(std::uint64_t seed) : prng_(seed) {}
  std::uint64_t next_u64() override { return prng_.next(); }

 private:
  Prng prng_;
};

}  // namespace lockcheck::sim
