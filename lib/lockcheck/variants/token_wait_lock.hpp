#pragma once
// The `token-wait` lock: the `token` lock, plus `WAIT numreplicas timeout` after a granted SET; the acquire
// counts only when at least `replicas` replicas acknowledged the write.
//
// What it does: SET key <random token> NX PX ttl (the reclaim script after a lost reply), then WAIT. Enough
// acknowledgements: acquired. Too few: the key is released again (compare-and-delete) and the attempt counts
// as not granted, so the acquire loop backs off and tries again within the caller's wait budget. A WAIT whose
// reply is lost (the master crashed or failed over meanwhile) is an unknown outcome: the next attempt
// reclaims the key if it still holds our token and waits again. Release is compare-and-delete, renew
// compare-and-pexpire, as `token` (renewals are not waited for). The validity is measured as for every lock,
// from before the SET was sent, so the time spent in WAIT comes out of the lease.
//
// Where it comes from: beyond the seeds (DESIGN.md's `token-wait`): Redisson's replica synchronisation, which
// follows lock writes with WAIT, and the WAIT documentation on redis.io: WAIT makes a lost write less likely
// but "does not make Redis a strongly consistent store".
//
// What it guarantees, beyond `token`: when an acquire succeeds, `replicas` replicas had applied the SET at
// the moment WAIT answered. A failover that promotes one of those replicas while the lease is valid keeps
// the key, so the next owner has to wait for it: the asynchronous-replication failover that breaks `token`
// (F5) no longer hands the lock to a second client, provided the promoted node is one that acknowledged.
//
// What it does not promise (WAIT does not make Redis strongly consistent):
//   * the acknowledging replicas may not be the one promoted: with two replicas and replicas = 1, promoting
//     the one that had not caught up (lagging, or cut off from the master) loses the key exactly as with
//     `token` (scenarios token-wait-unacked-replica-promoted-breaks, -partitioned-replica-promoted-breaks);
//   * a failover while a SET is granted but not yet acknowledged loses that grant on the server; the
//     acquirer never uses it (its WAIT fails), but the server did hand the lock out twice (token-wait-failover);
//   * release and renew are not waited for: a failover can resurrect a released key until its TTL (costs
//     liveness) or lose a renewal, so the promoted node keeps the old deadline while the holder's lease has
//     moved forward, and another client can acquire inside that lease (renewal is not protected);
//   * an acknowledgement is forgotten when the replica restarts without its data;
//   * everything else that breaks `token`: a pause past the TTL, server clock jumps.
// The cost is liveness and latency: every acquire waits a replication round trip, and while fewer than
// `replicas` replicas are reachable (or they lag more than the WAIT timeout) no acquire succeeds at all.
//
// The port's command timeout must exceed the WAIT timeout, or every WAIT looks like a lost reply.
#include <cstddef>
#include <cstdint>

#include "lockcheck/variants/single_key_lock.hpp"

namespace lockcheck {

struct TokenWaitOptions {
  // WAIT's numreplicas: acknowledgements required before an acquire counts. 1 .. 1000.
  std::int64_t replicas = 1;
  // WAIT's timeout. Positive (0 would block forever) and at most a quarter of the TTL, because it is spent
  // from the lease's validity.
  Millis wait_timeout{Millis(200)};
};

// Throws InvalidArgument when `wait` is out of range for a lock with these options.
void validate_token_wait_options(const TokenWaitOptions& wait, const LockOptions& options);

class TokenWaitLock final : public detail::SingleKeyLock {
 public:
  // Throws InvalidArgument when the options are out of range.
  TokenWaitLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, TokenWaitOptions wait = {},
                std::size_t node = 0);

  const TokenWaitOptions& wait_options() const { return wait_; }

 protected:
  Task<Attempt> attempt(const std::string& key, const std::string& token, bool after_lost_reply) override;

 private:
  TokenWaitOptions wait_;
};

}  // namespace lockcheck
