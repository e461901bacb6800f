#pragma once
// `fair` — the fair (first come, first served) lock behind lockcheck::FairMutex: the token lock, plus a queue
// in Redis that decides who is next.
//
// What it does: the lock key holds the owner's token, as the token lock's (release is its compare-and-delete,
// renew its compare-and-pexpire). Beside it, two sorted sets in the key's Redis Cluster slot: the queue (each
// waiting token scored by a ticket, in arrival order) and the waiters' deadlines (each token scored by a deadline
// on the SERVER's clock: the script reads TIME; no client's clock is ever trusted). One acquire script
// (fair_acquire.lua) drops the waiters whose deadline has passed, grants the lock when it is free and no live
// waiter is ahead of the caller, and otherwise keeps the caller's place and moves its deadline to now + the
// waiter lease (half the TTL). A waiter therefore polls, within its wait budget, every min(backoff, lease / 4):
// it never depends on a release message, so a lost one costs a poll interval, not its wait. A waiter that stops
// polling (it died, was paused, lost its link) loses its place one waiter lease after its last poll, on the
// server's clock, and the next in line goes ahead; one that gives up leaves the queue at once (fair_leave.lua).
// Around the scripts, the token lock's careful loop (single_key_lock.hpp): validity measured on the monotonic
// clock from before the attempt minus the drift margin, an acquire retried after a lost reply that recognises
// its own token, release and renew retried on a lost reply.
//
// Where it comes from: the safe answer to Redisson's RFairLock (`redisson-fair`), whose waiters' timeouts are
// scored and purged by the calling clients' clocks and whose waiters sleep until a message.
//
// What it guarantees, on one Redis master with a correct clock: what the token lock guarantees (one owner at a
// time by the server, owner-only release and renew), plus fairness: waiters that keep polling are granted in the
// order they arrived, and a dead waiter holds the others back for at most one waiter lease. Where it breaks: what
// every single-instance lease breaks under (asynchronous failover, which also loses the queue; a restart without
// data; a server clock jump, which moves every waiter's deadline; a holder paused past its lease).
#include <cstddef>
#include <string>

#include "lockcheck/variants/single_key_lock.hpp"

namespace lockcheck {

class FairLock final : public detail::SingleKeyLock {
 public:
  // Throws InvalidArgument when the options are out of range.
  FairLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, std::size_t node = 0)
      : SingleKeyLock(port, clock, entropy, options, node) {}

  // The queue and the deadlines of `key`, in its Redis Cluster slot.
  static std::string queue_key(const std::string& key);
  static std::string deadlines_key(const std::string& key);
  // How long a waiter keeps its place without polling, on the server's clock: half the TTL.
  Millis waiter_lease() const;

 protected:
  Task<Attempt> attempt(const std::string& key, const std::string& token, bool after_lost_reply) override;
  // Sleeps the backoff, but never longer than a quarter of the waiter lease: a waiter polls well within it.
  Task<void> wait_to_retry(const std::string& key, Micros pause, Micros left) override;
  Task<void> gave_up(const std::string& key, const std::string& token) override;
};

}  // namespace lockcheck
