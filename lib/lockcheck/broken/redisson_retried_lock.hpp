#pragma once
// `redisson-like-retries` — DELIBERATELY BROKEN, for study. Do not use it to protect anything; use
// lockcheck::RedissonMutex (`redisson-like`), whose retries are safe.
//
// What it does: `redisson-like` (the reentrant hash, the watchdog, waiters on pub/sub) with one difference: its
// acquire is Redisson's lock script as Redisson sends it (lib/scripts/redisson_retried_acquire.lua), with no
// record of the request. Redisson re-sends a command whose reply did not come within its timeout, or that
// failed on a failover error, up to retryAttempts times retryInterval apart (3 and 1.5 s by default); here the
// acquire loop's retry after a lost reply is that re-send: the same script again, under the same hold field.
//
// Where it comes from: Redisson's RLock with its command retries on (redisson/redisson #4822: a hold count of 41
// after 40 retries, the lock never released by its owner's unlock). `redisson-like` keeps a request record per
// acquire, the idea of Redisson's own unlock latch, so that a retry counts nothing twice.
//
// What it guarantees: what `redisson-like` does while no acquire's reply is lost.
// Where it breaks: an acquire whose reply is lost (a timeout, a failover error) and that is re-sent counts a
// second hold: the hash holds 2 for one acquire. The owner's release takes one away and reports the lock
// released; the hash still names the owner's hold (count 1) until its TTL runs out, and the lock stays taken that
// long after its owner let go of it, its next acquire waiting for it like anyone's (reentrancy: the outermost
// release left a hold counted;
// scenarios/redisson-like-retries-breaks-lost-reply-counts-twice.toml).
#include <memory>
#include <string>
#include <vector>

#include "lockcheck/variants/redisson_like_lock.hpp"

namespace lockcheck::broken {

// redisson-like's hash lock whose acquire is one script Redisson sends again on a retry, unchanged: KEYS are
// acquire_keys(key), ARGV the hold field, the TTL in ms and "reenter" for a nested acquire; a reply above 0 grants
// (a fencing token, when fencing()). redisson-fenced's lock is one too, with the token counter among the keys.
class RetriedHashLock : public lockcheck::detail::PubSubReentrantHashLock {
 public:
  RetriedHashLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, std::size_t node = 0)
      : PubSubReentrantHashLock(port, clock, entropy, options, node) {}

 protected:
  Task<Attempt> attempt_with_ttl(const std::string& key, const std::string& token, bool after_lost_reply,
                                 Millis ttl, const Request& request) override;
  const Script& acquire_script() const override;
  // Redisson's acquire records nothing: a retry after a lost reply runs it again, and counts again.
  std::optional<Micros> acquire_record_life() const override { return std::nullopt; }
  virtual std::vector<std::string> acquire_keys(const std::string& key) const { return {key}; }
  // Whether a grant's reply is a fencing token (else it is 1).
  virtual bool fencing() const { return false; }
};

class RedissonLikeRetriesLock final : public WatchdogLock {
 public:
  RedissonLikeRetriesLock(Port& port, Clock& clock, Entropy& entropy, const LockOptions& options, Spawner& spawner,
                          WatchdogOptions watchdog)
      : WatchdogLock(std::make_unique<RetriedHashLock>(port, clock, entropy, options), clock, spawner,
                     options.ttl, std::move(watchdog)) {}
};

}  // namespace lockcheck::broken
