#pragma once
// lockcheck::Latch: the `latch` variant (a Redis hash of the participants that counted down) behind an interface
// modelled on std::latch, across processes.
//
//   lockcheck::Client client({.host = "127.0.0.1", .port = 6379});
//   lockcheck::Latch ready(client, "job:42:ready", 3);   // three workers must count down
//   ready.count_down();                                   // in each worker, once its part is done
//   if (ready.wait_for(std::chrono::seconds(30))) { /* all three are done */ }
//
// Where Redisson's RCountDownLatch DECRs a counter, deletes it at zero and wakes waiters with one message, here
// every count_down is recorded under an id of its own (a random 128-bit id per call, or the participant's name
// with count_down_as), so a count_down retried after a lost reply, or repeated by a participant that restarted,
// counts once; the state stays after the latch opens, so an open latch never reads as a latch that does not
// exist; a waiter re-polls with backoff and needs no message; and with options.replicas a count_down returns only
// once that many replicas acknowledged it (WAIT), so an asynchronous failover does not lose it.
//
// No lease, no owner and nothing to renew: a Latch holds no lock. Thread safety: any thread may call any member
// at any time (the Client serialises the calls). Time bounds: count_down() returns within options.count_down_budget
// plus the retries' command timeouts; wait() within options.wait_limit; every call throws ConnectionError when no
// attempt reached Redis, UnknownOutcome when a count_down may or may not have been recorded, RedisError on an
// error reply (another client created the latch with another count).
#include <chrono>
#include <cstdint>
#include <string>

#include "lockcheck/client.hpp"
#include "lockcheck/lock_options.hpp"
#include "lockcheck/variants/latch_lock.hpp"

namespace lockcheck {

struct LatchOptions {
  // Backoff between polls and between a count_down's attempts (delay_min .. delay_max: a waiter sees the latch
  // open within delay_max of the last count_down, plus a round trip).
  RetryPolicy retry{};
  // WAIT for this many replicas before a count_down counts (0: a single master, no WAIT).
  std::int64_t replicas = 0;
  Millis replica_timeout{Millis(200)};
  Micros count_down_budget{Millis(5000)};  // how long a count_down keeps trying
  Micros wait_limit{std::chrono::hours(1)};  // wait() throws LockTimeout after this
};

class Latch {
 public:
  // `count`: how many count_downs open the latch (at least 1; every client of the key must agree on it). Throws
  // InvalidArgument for an empty key, a count of 0 or options out of range.
  Latch(Client& client, std::string key, std::uint32_t count, LatchOptions options = {});

  // Counts down once, under a fresh random id (std::latch::count_down()).
  void count_down();
  // Counts down as `participant`: however often it is called, that participant counts once.
  void count_down_as(const std::string& participant);
  // True when the latch is open now (one poll).
  bool try_wait();
  // Waits until the latch is open: true, or false once `timeout` has passed.
  template <typename Rep, typename Period>
  bool wait_for(const std::chrono::duration<Rep, Period>& timeout) {
    return wait_micros(std::chrono::duration_cast<Micros>(timeout));
  }
  // Waits until the latch is open, for at most options.wait_limit (then throws LockTimeout).
  void wait();
  // count_down(), then wait().
  void arrive_and_wait();

  const std::string& key() const { return key_; }
  std::uint32_t count() const { return latch_.count(); }

 private:
  bool wait_micros(Micros timeout);

  Client& client_;
  std::string key_;
  LatchOptions options_;
  LatchLock latch_;
};

}  // namespace lockcheck
