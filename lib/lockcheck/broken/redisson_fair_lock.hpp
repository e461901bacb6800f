#pragma once
// `redisson-fair` — DELIBERATELY BROKEN, for study. Do not use it to protect anything; use lockcheck::FairMutex.
//
// What it does: Redisson's RFairLock as its documentation and tracker describe it. The lock is a hash (owner
// field -> hold count, PEXPIREd with the lease), the owner id drawn once per lock object ("<random>:1", as
// Redisson's "<UUID>:<threadId>"). Beside it a queue list of the waiting owners, "redisson_lock_queue:{<key>}",
// and a timeout sorted set, "redisson_lock_timeout:{<key>}": each waiter scored by the time by which it must
// have taken the lock, computed by the CALLING CLIENT from its own wall clock: the previous waiter's timeout (or
// the caller's now + the lock's PTTL) + the thread wait time. Every acquire and every release first purges the
// waiters at the queue's head whose timeout is at or below the caller's own clock, as dead
// (redisson_fair_acquire.lua, redisson_fair_release.lua). The releaser of the last hold deletes the lock and
// PUBLISHes on the channel of the waiter then at the head ("redisson_lock__channel:{<key>}:<owner>": one channel
// per waiter). A busy acquire subscribes to its own channel (once per lock object), retries at once, then sleeps
// until a message or until the time its last attempt named (its turn by the scores), within its wait budget, as
// Redisson's tryLock(wait) does; a waiter whose budget runs out leaves the queue (redisson_fair_leave.lua).
// The thread wait time is 5 TTLs here (Redisson's is 5 minutes, ten times its default 30 s watchdog lease), so
// a run of seconds meets it.
//
// Where it comes from: Redisson's RedissonFairLock (tryLock, unlock, acquireFailed) and its tracker:
// redisson/redisson#1104 and #2099 (waiters' timeouts drifted far into the future; a dead waiter's far-future
// score then blocks everyone), #3004 (live waiters purged as expired, never woken, hang), #3730 (a lost unlock
// message leaves a waiter sleeping out its whole wait).
//
// What it guarantees: with the clients' clocks in step, no faults, waiters granted in arrival order, one owner at
// a time by the server. Where it breaks:
//   * a waiter that dies in the queue is never removed until its timeout passes on some caller's clock: up to
//     the lock's PTTL + one thread wait time per place (more after others left before it: their departures
//     leave its timeout where it was): nobody can take the free lock meanwhile (fairness, a hang; bounded
//     unavailability: scenarios/redisson-fair-breaks-dead-waiter.toml);
//   * a client whose wall clock runs ahead by more than a waiter's time left purges live waiters: they are not
//     told, sleep on, and are overtaken by later arrivals when they try again (fairness, a skip:
//     scenarios/redisson-fair-breaks-client-clock-ahead.toml); a client whose clock runs behind has its own
//     place purged by the others;
//   * under contention that keeps the queue from emptying for longer than the thread wait time, no clock needs
//     to be off: each grant moves every later timeout one thread wait time earlier, and each newcomer is scored
//     only one thread wait time past the tail, so the head's timeout stops advancing while time does, and a
//     live head is purged as dead (the same skip and hang; scenarios/redisson-fair-holds.toml lets the queue
//     empty between bursts, and holds);
//   * a lost release message leaves the waiter at the head sleeping until the time its last attempt named
//     (for the second in line, one thread wait time past the holder's lease: longer than most waits), while the
//     free lock waits for it;
//   * an acquire retried after a lost reply counts a second hold, which the one release leaves standing until the
//     lease runs out.
// It is reentrant as RFairLock is (a nested acquire of the same object counts one more hold), but the catalogue
// row does not claim it: nesting is not what this variant is kept to show.
#include <cstddef>
#include <map>
#include <set>
#include <string>

#include "lockcheck/variants/single_key_lock.hpp"

namespace lockcheck::broken {

class RedissonFairLock final : public detail::SingleKeyLock {
 public:
  RedissonFairLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, std::size_t node = 0)
      : SingleKeyLock(port, clock, entropy, options, node) {}

  static std::string queue_key(const std::string& key) { return "redisson_lock_queue:{" + key + "}"; }
  static std::string timeouts_key(const std::string& key) { return "redisson_lock_timeout:{" + key + "}"; }
  // A waiter listens on this prefix followed by its owner id.
  static std::string channel_prefix(const std::string& key) { return "redisson_lock__channel:{" + key + "}:"; }
  // How long past its turn a waiter keeps its place: 5 TTLs.
  Millis thread_wait_time() const { return options_.ttl * 5; }
  // This object's owner field in the lock hash and its place in the queue (drawn on first use, then fixed).
  const std::string& owner_id();

 protected:
  std::string make_token() override { return owner_id(); }
  Task<Attempt> attempt(const std::string& key, const std::string& token, bool after_lost_reply) override;
  Task<CallResult> release_call(const std::string& key, const std::string& token, const Request& request) override;
  Task<CallResult> renew_call(const std::string& key, const std::string& token) override;
  Task<void> wait_to_retry(const std::string& key, Micros pause, Micros left) override;
  Task<void> gave_up(const std::string& key, const std::string& token) override;

 private:
  std::string now_ms() { return std::to_string(clock_.wall_now().count()); }

  std::string owner_;
  std::map<std::string, Micros> turn_in_;  // key -> the wait until our turn that the last refusal named
  std::set<std::string> subscribed_;  // the channels this object's port listens on (ours, per key)
  bool pubsub_unavailable_ = false;
};

}  // namespace lockcheck::broken
