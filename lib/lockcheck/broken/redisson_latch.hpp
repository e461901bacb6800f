#pragma once
// `redisson-latch` — DELIBERATELY BROKEN, for study. Do not use it to coordinate anything; use lockcheck::Latch.
//
// What it does: Redisson's RCountDownLatch as its documentation describes it. One string key counts down. The
// first use of a latch key by this object sets it to the count unless it exists (trySetCount: the first client
// wins; once the latch reached zero and its key was deleted, a late trySetCount arms it again). countDown DECRs
// it; at zero it DELetes the key and PUBLISHes once on "redisson_countdownlatch__channel__{<key>}". await
// subscribes to that channel, then reads the count (a missing key reads 0: open) and, while it is above zero,
// waits for a message for at most the rest of its wait budget, then reads again (as Redisson's await(timeout)
// does; polling with backoff where the port has no plain pub/sub). A countDown whose reply was lost is sent again
// (Redisson's command retries), and DECRs again.
//
// Where it comes from: Redisson's RCountDownLatch (trySetCount, countDown, await) and its tracker:
// redisson/redisson#2304 (threads blocked waiting on the latch) and #5349 (at zero only one waiter was notified):
// a waiter the zero message does not reach is never released.
//
// What it guarantees: without faults, an await returns once `count` count_downs ran, and not before.
// Where it breaks (the `latch` property): the zero message is the only wake-up, so a lost message keeps an
// awaiting client waiting out its whole budget (scenarios/redisson-latch-breaks-lost-message.toml); a failover
// that loses a DECR leaves the promoted node's count above zero for good, and no one counts down again: the latch
// never opens (scenarios/redisson-latch-breaks-failover.toml); a failover that loses the trySetCount, or a
// retried countDown, opens it early (a missing key reads 0; DECR runs twice).
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>

#include "lockcheck/clock.hpp"
#include "lockcheck/entropy.hpp"
#include "lockcheck/latch_algorithm.hpp"
#include "lockcheck/lock_options.hpp"
#include "lockcheck/port.hpp"

namespace lockcheck::broken {

class RedissonLatch final : public LatchAlgorithm {
 public:
  // Throws InvalidArgument when `count` is 0 or the options are out of range.
  RedissonLatch(Port& port, Clock& clock, Entropy& entropy, const LockOptions& options, std::uint32_t count,
                std::size_t node = 0);

  // trySetCount, once per key this object uses (count_down and wait call it too, if it has not run).
  Task<void> set_up(std::string key) override;
  // `participant` is ignored: RCountDownLatch records no one.
  Task<CountDownResult> count_down(std::string key, std::string participant, Micros budget) override;
  Task<LatchWaitResult> wait(std::string key, Micros wait) override;
  std::uint32_t count() const override { return count_; }

  static std::string channel_of(const std::string& key) { return "redisson_countdownlatch__channel__{" + key + "}"; }

 private:
  // trySetCount, retried on a lost reply, once per key this object uses.
  Task<void> set_count_once(const std::string& key);
  // Subscribes to `key`'s channel unless subscribed; false when the port has no pub/sub or no reply came.
  Task<bool> subscribed_to(const std::string& key);

  Port& port_;
  Clock& clock_;
  Entropy& entropy_;
  LockOptions options_;
  std::uint32_t count_;
  std::size_t node_;
  std::set<std::string> set_keys_;
  std::set<std::string> subscribed_;
  bool pubsub_unavailable_ = false;
};

}  // namespace lockcheck::broken
