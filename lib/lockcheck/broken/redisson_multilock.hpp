#pragma once
// `redisson-multilock` and `redisson-redlock` — DELIBERATELY BROKEN, for study. Do not use them to protect
// anything; use lockcheck::RedlockMutex (a quorum, with validity checked) or a single master's Mutex with WAIT.
//
// What they do: Redisson's RedissonMultiLock and RedissonRedLock as their documentation describes them, over the
// port's N independent masters, the lock's key on each: one member lock per master, each Redisson's hash lock (a
// hash of owner -> hold count with a lease, redisson_multilock_member_*.lua). tryLock goes through the members in
// order, each with a wait of its own (the multi-lock: what is left of the wait; the RedLock: that divided by N,
// at least 1 ms), polling a busy member with backoff. The multi-lock needs every member: when one fails it gives
// back those it holds and starts over from the first, while the wait lasts. The RedLock tolerates N - (N/2 + 1)
// failed members and stops once the rest cannot matter. A member whose reply is lost counts as failed (and is
// given back). A wait of zero is tryLock(): one pass over the members. Once enough are held, every held member's lease is set again with a plain PEXPIRE, and the lease
// is counted from then (TTL - drift margin); nothing checks that the first members are still held. Unlock gives
// back every member; renew PEXPIREs the owner's members and needs as many as acquiring did.
//
// Where they come from: Redisson's RedissonMultiLock and RedissonRedLock (deprecated since, in favour of RLock
// and RFencedLock) and their tracker: redisson/redisson#5220 (one master down and the multi-lock never locks),
// #656 (a RedLock acquired while another thread held one of its locks: a quorum without that one).
//
// What they guarantee: without faults, one holder at a time. Where they break: `redisson-multilock` needs all N
// masters, so with one master down (or one client cut off from one, holding the others' members while it waits)
// nobody gets the lock again until it returns (bounded_unavailability's clause for locks over independent masters,
// where `redlock` with a majority up does: scenarios/redisson-multilock-breaks-master-down.toml). The final plain
// PEXPIRE can extend a member that expired during a slow acquisition and was taken by another client (explore
// finds it as owner_only_release). #656 is the RedLock's quorum working as designed (a member held by someone
// else is one of the tolerated failures); it breaks no property while quorums intersect, and under the faults
// that break that (a restart without data) it breaks as `redlock` does.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "lockcheck/clock.hpp"
#include "lockcheck/entropy.hpp"
#include "lockcheck/lock_algorithm.hpp"
#include "lockcheck/lock_options.hpp"
#include "lockcheck/port.hpp"

namespace lockcheck::broken {

class RedissonMultiLock final : public LockAlgorithm {
 public:
  enum class Needs { every_member, majority };

  // Over every node of `port`. Throws InvalidArgument for options out of range or a port without nodes.
  RedissonMultiLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, Needs needs);

  Task<AcquireResult> acquire(std::string key, Micros wait) override;
  Task<ReleaseStatus> release(Lease& lease) override;
  Task<RenewStatus> renew(Lease& lease) override;

  // How many members one holder needs: every one, or a majority.
  std::size_t needed() const;

 private:
  struct Member {
    bool granted = false;
    bool replied = false;
    bool held_by_another = false;
  };
  // One member's tryLock: polls its master with backoff for up to `wait` (one attempt at least).
  Task<Member> try_member(std::size_t node, const std::string& key, const std::string& owner, Micros wait);
  // Gives back the members on `nodes` (unlockInner); true when one of them was released.
  Task<bool> unlock_members(const std::string& key, const std::string& owner, const std::vector<std::size_t>& nodes,
                            bool* unanswered = nullptr);

  Port& port_;
  Clock& clock_;
  Entropy& entropy_;
  LockOptions options_;
  Needs needs_;
};

}  // namespace lockcheck::broken
