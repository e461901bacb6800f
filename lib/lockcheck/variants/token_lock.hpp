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

#include "lockcheck/variants/single_key_lock.hpp"

namespace lockcheck {

class TokenLock final : public detail::SingleKeyLock {
 public:
  // Throws InvalidArgument when the options are out of range.
  TokenLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, std::size_t node = 0)
      : SingleKeyLock(port, clock, entropy, options, node) {}
  // Everything else is the shared loop: SET NX PX (the reclaim script after a lost reply), compare-and-delete,
  // compare-and-pexpire (single_key_lock.hpp).
};

}  // namespace lockcheck
