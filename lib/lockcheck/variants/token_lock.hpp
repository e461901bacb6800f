#pragma once
// The `token` lock: SET key <random token> NX PX ttl; release by compare-and-delete; renew by compare-and-pexpire.
//
// Provenance: the single-instance algorithm on redis.io ("Distributed Locks with Redis") and the articles'
// corrected version. Guarantees, on a single Redis that keeps its data and clock: at most one token holds
// the key at a time (server-level mutual exclusion), only the holder's token can release or extend it, and
// the key always carries a TTL. It cannot promise client-level exclusion: a holder paused longer than the
// TTL (GC, SIGSTOP, VM migration) wakes up believing it holds the lock. It breaks on failover with
// asynchronous replication and on a server clock jumping forward. Use fencing when the resource allows.
//
// Safer than the common implementations in three ways: an acquire whose reply is lost is retried with a
// script that recognises our own token (never a false "busy", never a ghost lock), the validity is measured
// on the monotonic clock from before the request was sent minus a drift margin, and a grant that arrives
// after its validity is already spent is released instead of used.
#include <cstddef>
#include <optional>
#include <string>

#include "lockcheck/clock.hpp"
#include "lockcheck/entropy.hpp"
#include "lockcheck/lease.hpp"
#include "lockcheck/lock_algorithm.hpp"
#include "lockcheck/lock_options.hpp"
#include "lockcheck/port.hpp"

namespace lockcheck {

class TokenLock final : public LockAlgorithm {
 public:
  // Throws InvalidArgument when the options are out of range.
  TokenLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, std::size_t node = 0);

  // Tries until acquired or `wait` has passed on the monotonic clock (0: one attempt, plus the retries
  // an unknown outcome earns). Throws RedisError on an error reply, InvalidArgument on a bad key.
  Task<AcquireResult> acquire(std::string key, Micros wait) override;
  // Safe to call more than once; retried on a lost reply. Marks the lease lost in every case.
  Task<ReleaseStatus> release(Lease& lease) override;
  // Resets the TTL if the key still holds our token; on success the lease's validity moves forward.
  Task<RenewStatus> renew(Lease& lease) override;

  const LockOptions& options() const { return options_; }

 private:
  Task<CallResult> attempt(const std::string& key, const std::string& token, bool reclaim);
  Task<ReleaseStatus> release_token(const std::string& key, const std::string& token);
  Micros backoff(std::uint32_t busy_attempts);

  Port& port_;
  Clock& clock_;
  Entropy& entropy_;
  LockOptions options_;
  std::size_t node_;
};

}  // namespace lockcheck
