#pragma once
// `redlock`: the lock on N independent Redis masters (antirez, redis.io "Distributed Locks with Redis").
//
// Acquire sends SET key token NX PX ttl to every node at once (one round trip, not N), stops waiting as
// soon as a majority (N/2 + 1) granted or can no longer grant (a slow node does not slow it), and
// holds the lock only with a majority *and* time left: validity = TTL − elapsed − drift margin,
// elapsed measured on the monotonic clock from before the first request was sent. A failed attempt (no
// quorum, or no validity left) sends the release to every node, including those whose reply was lost, awaits
// only the nodes that granted (a down node must not hold every client whose vote split up for a command
// timeout per round), then retries after a jittered backoff with a new token (a late release of the failed
// attempt then cannot delete the next attempt's grant). Release and renew are the token lock's
// compare-and-delete / compare-and-pexpire scripts on every node; renew succeeds only with a majority inside the new validity.
//
// Guarantees, while node clocks run at about the right rate and a crashed node does not rejoin before the
// TTLs it held have run out: a majority of nodes never grants two tokens at once. It survives a minority
// of nodes down or partitioned and pauses *during* acquisition (the validity check catches them). It breaks
// when a node's clock jumps forward, when a node restarts without persistence (or with fsync everysec)
// before its keys' TTL ran out, and, like every auto-releasing lock, when the holder pauses past its
// validity after acquiring (Kleppmann). Use fencing where the resource allows.
#include "lockcheck/clock.hpp"
#include "lockcheck/entropy.hpp"
#include "lockcheck/lock_algorithm.hpp"
#include "lockcheck/lock_options.hpp"
#include "lockcheck/port.hpp"

namespace lockcheck {

class Redlock final : public LockAlgorithm {
 public:
  // Uses every node of `port` (an odd number, 3 or 5, is the usual choice). Throws InvalidArgument.
  Redlock(Port& port, Clock& clock, Entropy& entropy, LockOptions options);

  Task<AcquireResult> acquire(std::string key, Micros wait) override;
  Task<ReleaseStatus> release(Lease& lease) override;
  Task<RenewStatus> renew(Lease& lease) override;

  std::size_t quorum() const { return quorum_of(nodes_.size()); }
  // A majority of `masters`: how many of them one holder needs.
  static std::size_t quorum_of(std::size_t masters) { return masters / 2 + 1; }

 private:
  // SET key token NX PX ttl for every master, built once per attempt.
  std::vector<NodeCommand> set_everywhere(const std::string& key, const std::string& token, const std::string& ttl_ms) const;
  Task<ReleaseStatus> release_everywhere(const std::string& key, const std::string& token);
  // The token release on `pending`, retried on the nodes whose answer was lost, rounds `rounds_done`.. of the
  // retry policy's idempotent attempts.
  Task<ReleaseStatus> release_on(const std::string& key, const std::string& token, std::vector<std::size_t> pending,
                                 std::uint32_t rounds_done);
  // Undoes a failed attempt whose SET replies were `replies` (in nodes_' order).
  Task<void> undo_attempt(const std::string& key, const std::string& token, const std::vector<CallResult>& replies);

  Port& port_;
  Clock& clock_;
  Entropy& entropy_;
  LockOptions options_;
  std::vector<std::size_t> nodes_;
};

}  // namespace lockcheck
