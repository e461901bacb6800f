#include "workload_space.hpp"

#include <algorithm>

#include "lockcheck/variants/registry.hpp"

namespace lockcheck::explore {
namespace {

std::int64_t ttl_us(const sim::RunConfig& config) { return config.lock.ttl.count() * 1000; }

}  // namespace

void draw_workload(const sim::RunConfig& base, bool can_renew, sim::Prng& prng, sim::RunConfig& out) {
  // A user's scripts get the TTL as an argument (ARGV[2]), and arithmetic on it is theirs to get wrong (EX in
  // whole seconds, rounded down, is right only for whole seconds): their runs draw it, the base's, 1.5 or 2.5
  // times it. The library's own variants keep the base's (their draws stay as they were).
  if (base.variant == "script") {
    static constexpr std::int64_t kTtlHalves[] = {2, 3, 5};
    out.lock.ttl = base.lock.ttl * kTtlHalves[prng.below(3)] / 2;
  }
  const std::int64_t ttl = ttl_us(out);
  out.clients = std::vector<sim::ClientConfig>(static_cast<std::size_t>(prng.between(2, 5)));
  if (base.workload.nest_every > 0) {
    static constexpr std::uint32_t kNestEvery[] = {1, 2, 3};
    out.workload.nest_every = kNestEvery[prng.below(3)];
  }
  if (can_renew) out.renewal.watchdog = prng.below(2) == 0;
  // Holds well inside and near the TTL (permille of it); past it only when the run renews (a watchdog, a lock
  // that renews by itself, or a base whose own holds pass the TTL). A holder that outstays a lease nothing
  // renews is a misuse every auto-release lock "fails", and would hide every other find; a renewal's own bugs
  // (client-reentrant's cap on renewals) show only in holds past the TTL.
  static constexpr std::int64_t kHoldPermille[] = {50, 300, 800, 1500, 3000};
  const bool renews_itself = variant_row(base.variant).renewal == Renewal::in_background;
  const bool renews = out.renewal.watchdog || renews_itself || base.workload.hold_max_us > ttl;
  const std::int64_t permille = kHoldPermille[prng.below(renews ? 5 : 3)];
  const std::int64_t hold_max = std::max<std::int64_t>(2000, ttl * permille / 1000 / 1000 * 1000);
  out.workload.hold_max_us = hold_max;
  out.workload.hold_min_us = hold_max / 2 / 1000 * 1000;
  // A careful holder (it checks its lease before writing) in one run of four: what a pause cannot break
  // then is the lock's, and a lock whose lease lies about its validity shows.
  out.workload.check_lease_before_write = prng.below(4) == 0;
}

}  // namespace lockcheck::explore
