#pragma once
// The Entropy seam: lock tokens and retry jitter.
#include <cstdint>
#include <string>

namespace lockcheck {

class Entropy {
 public:
  virtual ~Entropy() = default;
  virtual std::uint64_t next_u64() = 0;

  // A 128-bit token as 32 lower-case hex digits: unguessable in production, seeded in simulation.
  std::string token_hex();
  // Uniform in [0, bound) without modulo bias; 0 when bound is 0.
  std::uint64_t uniform(std::uint64_t bound);
};

// The operating system's CSPRNG (getrandom(2)).
class OsEntropy final : public Entropy {
 public:
  std::uint64_t next_u64() override;
};

}  // namespace lockcheck
