#pragma once
// `redisson-like` — Redisson's RLock, rebuilt: the reentrant hash lock (hold field -> hold count), kept alive
// by the watchdog, with waiters that sleep on pub/sub and wake when the holder releases.
//
// What it does: `reentrant-hash`'s scripts, safe to retry as there (request records, as Redisson's unlock
// latch); its release, when it removes the last hold, deletes the key and PUBLISHes on the lock's channel
// ("lockcheck:released:<key>"); on a cluster (a port with shard channels: ClusterPort) it SPUBLISHes on a
// shard channel in the key's slot ("lockcheck:released:{<key>}"), which lives on the key's shard only. A busy acquire subscribes to that channel (once per lock object and key, on a
// connection of its own), retries at once (a release between its first attempt and the subscription would
// otherwise be missed), then waits for a message — at most one TTL, then it retries anyway — instead of
// polling with backoff. An attempt whose reply was lost waits only the backoff before its retry (the loop's
// rule: a lost reply says nothing of a holder), so the retry comes while the request record of the lost attempt
// lives (waiting up to a TTL for a message there let the record expire and the retry count the hold twice).
// Renewal every ttl/3 by the watchdog (WatchdogLock): compare-and-pexpire on the hold's field, fail-stop, stops
// before release.
//
// Where it comes from: the article on Redisson (RedissonLock: lua scripts over a hash, the lock watchdog,
// `redisson_lock__channel` pub/sub wake-up), DESIGN.md's `redisson-like`.
//
// What it guarantees: what `reentrant-hash` and `watchdog` guarantee together — one owner at a time by the
// server, owner-only release and renewal, correct reentry (one lock object = one owner), holds longer than
// the TTL while the holder lives; plus fast hand-off: a waiter learns of a release about one one-way trip
// after it (tools/bench/handoff_bench.cpp measures it against the token lock's polling). A lost message (a
// broken pub/sub connection, a node restart) costs latency only: the waiter retries after one TTL.
// Where it breaks: failover with asynchronous replication (the promoted replica may not have the hash; a
// second client acquires — scenarios/redisson-like-failover-breaks.toml), server clock jumps, and a
// stop-the-world pause longer than the TTL (the watchdog pauses with its holder).
#include <memory>
#include <set>
#include <string>

#include "lockcheck/variants/reentrant_hash_lock.hpp"
#include "lockcheck/variants/watchdog_lock.hpp"

namespace lockcheck {

namespace detail {

// The reentrant hash lock whose release announces itself and whose waiters listen for it. Not final: the broken
// Redisson variants (lockcheck/broken/redisson_retried_lock.hpp, redisson_fenced_lock.hpp) change its acquire.
class PubSubReentrantHashLock : public ReentrantHashLock {
 public:
  PubSubReentrantHashLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, std::size_t node = 0)
      : ReentrantHashLock(port, clock, entropy, options, node) {}

  static std::string channel_of(const std::string& key) { return "lockcheck:released:" + key; }
  // The shard channel for `key` on a cluster: in the key's slot (its hash tag kept, or the whole key made
  // the tag), so the release script may SPUBLISH on it and it lives on the key's shard. Empty when no name
  // can share the key's slot (a key with braces but no hash tag): then waiters poll.
  static std::string shard_channel_of(const std::string& key);

 protected:
  Task<CallResult> release_call(const std::string& key, const std::string& token, const Request& request) override;
  Task<void> wait_to_retry(const std::string& key, Micros pause, Micros left) override;

 private:
  std::string channel_for(const std::string& key) const;  // the port's kind of channel; empty: poll
  std::set<std::string> subscribed_;  // channels this lock object's port is subscribed to
  bool pubsub_unavailable_ = false;   // the port has no pub/sub: poll like the token lock
};

}  // namespace detail

class RedissonLikeLock final : public WatchdogLock {
 public:
  RedissonLikeLock(Port& port, Clock& clock, Entropy& entropy, const LockOptions& options, Spawner& spawner,
                   WatchdogOptions watchdog)
      : WatchdogLock(std::make_unique<detail::PubSubReentrantHashLock>(port, clock, entropy, options), clock, spawner,
                     options.ttl, std::move(watchdog)) {}
};

}  // namespace lockcheck
