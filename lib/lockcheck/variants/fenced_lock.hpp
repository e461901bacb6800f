#pragma once
// The `fenced` lock: the `token` lock plus a fencing token, strictly increasing per lock key, handed out by
// the same atomic script that takes the lock (Lease::fencing_token).
//
// What it does: acquire runs lib/scripts/fenced_acquire.lua: SET key <random token> NX PX ttl and, only when
// that succeeds, HINCRBY <key>:fence counter 1 — the new counter value is the fencing token, recorded with the
// owner token in the same hash so that a retry after a lost reply (fenced_reclaim.lua) gets back the fencing
// token of the grant it may have won. Release is compare-and-delete, renew compare-and-pexpire (as `token`).
// The fencing hash has no TTL: the counter must outlive every lock instance.
//
// Where it comes from: beyond the articles — Martin Kleppmann, "How to do distributed locking" (2016):
// a lock with leases cannot stop a paused holder from acting after its lease ran out; the resource can, if
// every write carries a token that increases with each grant and the resource rejects a token lower than
// one it already accepted (research/harness-anchors.md, S11).
//
// What it guarantees, on a single Redis that keeps its data: everything the `token` lock guarantees, and
// each grant of a key gets a fencing token strictly greater than every earlier grant's. Client-level
// exclusion still breaks under a pause past the TTL (F4): the paused holder believes it still holds the lock.
// A resource that checks the fencing token rejects that holder's late write, so the resource stays safe.
//
// Breaks under: anything that loses the counter. On failover with asynchronous replication the promoted
// replica may lack the latest HINCRBY and hand out the same token again (F25: Kleppmann's "a counter on one
// Redis node would not be sufficient"); a restart without persistence or eviction of <key>:fence under an
// allkeys-* policy restarts the counter. Use WAIT / a linearizable counter where that matters.
// In Redis Cluster give the key a hash tag ("{name}") so that <key>:fence lands in the same slot.
#include <string>

#include "lockcheck/variants/single_key_lock.hpp"

namespace lockcheck {

class FencedLock final : public detail::SingleKeyLock {
 public:
  // Throws InvalidArgument when the options are out of range.
  FencedLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, std::size_t node = 0)
      : SingleKeyLock(port, clock, entropy, options, node) {}

  // The hash that holds the lock's fencing counter.
  static std::string fence_key(const std::string& key) { return key + ":fence"; }

 protected:
  Task<Attempt> attempt(const std::string& key, const std::string& token, bool after_lost_reply) override;
};

}  // namespace lockcheck
