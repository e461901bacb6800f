#pragma once
// `redisson-fenced` — DELIBERATELY BROKEN, for study. Do not use it to protect anything; use
// lockcheck::FencedMutex (`fenced`), and a linearizable counter where a failover must not repeat a token.
//
// What it does: Redisson's RFencedLock as its documentation describes it: RLock (here `redisson-like`: the
// reentrant hash, the watchdog, waiters on pub/sub) whose every acquisition, reentrant ones included, INCRs a
// token counter "<key>:token" in the same script and hands its new value out as the lease's fencing token
// (lib/scripts/redisson_fenced_acquire.lua). The counter has no TTL and is never deleted. The acquire is sent
// again after a lost reply, as Redisson's command retries do (retryAttempts, retryInterval), with nothing
// recorded of the request: as `redisson-like-retries`.
//
// Where it comes from: Redisson's RFencedLock ("each lock acquisition increases fencing token"; the guarded
// service should reject a token below the last it accepted) and its tracker: redisson/redisson #6510 (25M token
// keys in one deployment: one per lock name, kept for good).
//
// What it guarantees, on one Redis that keeps its data: what `redisson-like` does while no reply is lost, and a
// fencing token per acquisition that is greater than every earlier one's.
// Where it breaks:
//   * a retried acquire counts a second hold (as redisson-like-retries): the owner's release leaves the lock
//     held (reentrancy; scenarios/redisson-fenced-breaks-lost-reply-counts-twice.toml);
//   * a failover that loses the last INCR hands the same token to the next holder (the promoted replica lacks
//     it; fencing, scenarios/redisson-fenced-failover-breaks.toml). A limit every Redis counter shares with it:
//     `fenced` breaks there too (scenarios/fenced-failover.toml, F25), so explore names that a known limit;
//   * every lock name leaves its counter behind for good (lib/test/variants_redis_test.cpp counts them).
#include <memory>
#include <string>
#include <vector>

#include "lockcheck/broken/redisson_retried_lock.hpp"

namespace lockcheck::broken {

class FencedRetriedHashLock final : public RetriedHashLock {
 public:
  FencedRetriedHashLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, std::size_t node = 0)
      : RetriedHashLock(port, clock, entropy, options, node) {}

 protected:
  const Script& acquire_script() const override;
  std::vector<std::string> acquire_keys(const std::string& key) const override;
  bool fencing() const override { return true; }
};

class RedissonFencedLock final : public WatchdogLock {
 public:
  RedissonFencedLock(Port& port, Clock& clock, Entropy& entropy, const LockOptions& options, Spawner& spawner,
                     WatchdogOptions watchdog)
      : WatchdogLock(std::make_unique<FencedRetriedHashLock>(port, clock, entropy, options), clock, spawner,
                     options.ttl, std::move(watchdog)) {}

  // The token counter of lock `key`: a plain key with no TTL, never deleted. In Redis Cluster give the key a
  // hash tag ("{name}") so that it lands in the lock's slot.
  static std::string token_key(const std::string& key) { return key + ":token"; }
};

}  // namespace lockcheck::broken
