#pragma once
// `setnx-then-expire` — DELIBERATELY BROKEN, for study. Do not use it to protect anything.
//
// What it does: acquire = SETNX key <random token>, then PEXPIRE key ttl as a second command. Release = compare-and-delete,
// renew = compare-and-pexpire, so the only bug is the gap between the two acquire commands.
//
// Where it comes from: the articles' second attempt (SETNX + EXPIRE, before SET gained NX/PX in Redis 2.6.12);
// the same bug was reported in redis-py (PR #902), laravel/horizon #1738 and ShedLock #65
// (research/harness-anchors.md, F1).
//
// What it guarantees: exclusion on a single Redis while nobody dies (SETNX is atomic). Nothing about
// liveness: a client that crashes (or is partitioned, or whose PEXPIRE is lost) after SETNX and before
// PEXPIRE leaves a lock key with no TTL, and nobody can ever take the lock again until an operator deletes it.
//
// Breaks under: a client crash between the two commands -> bounded_unavailability (a lock key without expiry).
// See scenarios/setnx-then-expire-crash.toml. The fix is SET key token NX PX ttl (the `token` lock).
#include "lockcheck/variants/single_key_lock.hpp"

namespace lockcheck::broken {

class SetnxThenExpireLock final : public detail::SingleKeyLock {
 public:
  SetnxThenExpireLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, std::size_t node = 0)
      : SingleKeyLock(port, clock, entropy, options, node) {}

 protected:
  Task<Attempt> attempt(const std::string& key, const std::string& token, bool after_lost_reply) override;
};

}  // namespace lockcheck::broken
