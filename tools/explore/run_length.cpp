#include "run_length.hpp"

#include <algorithm>

#include "properties/checkers.hpp"
#include "properties/clauses.hpp"

namespace lockcheck::explore {
namespace {

// The longest run is the base itself: the Luby term at which a run reaches it.
constexpr std::uint64_t kEighths = 8;
// A lease must be able to expire and be taken again within a run.
constexpr std::int64_t kMinTtls = 2;

std::int64_t run_ttl_us(const sim::RunConfig& config) { return config.lock.ttl.count() * 1000; }

}  // namespace

std::uint64_t luby(std::uint64_t i) {
  // Luby(i) = 2^(k-1) when i = 2^k - 1; otherwise Luby(i - 2^(k-1) + 1) for 2^(k-1) <= i < 2^k - 1.
  // Each step removes i's top bit, so at most 64 steps.
  for (int step = 0; step < 64; ++step) {
    std::uint64_t k = 1;
    while (k < 63 && ((std::uint64_t{1} << k) - 1) < i) ++k;
    if (((std::uint64_t{1} << k) - 1) == i) return std::uint64_t{1} << (k - 1);
    i = i - (std::uint64_t{1} << (k - 1)) + 1;
  }
  return 1;
}

std::int64_t shortest_run_us(const sim::RunConfig& base, const std::string& property) {
  // A liveness clause (a latch that never opens, a permit lost) is judged over the same bound.
  if (property == "bounded_unavailability" || properties::is_liveness_clause(property)) return 2 * run_ttl_us(base) + properties::unavailability_bound_us(run_ttl_us(base));
  return kMinTtls * run_ttl_us(base);
}

std::int64_t fresh_duration_us(const sim::RunConfig& base, std::uint64_t fresh_index, std::int64_t shortest_us) {
  const std::uint64_t term = std::min(luby(std::max<std::uint64_t>(fresh_index, 1)), kEighths);
  const std::int64_t scaled_us = base.duration_us / static_cast<std::int64_t>(kEighths) * static_cast<std::int64_t>(term);
  const std::int64_t duration_us = std::min(base.duration_us, std::max(scaled_us, shortest_us));
  return std::max<std::int64_t>(1000, duration_us / 1000 * 1000);
}

}  // namespace lockcheck::explore
