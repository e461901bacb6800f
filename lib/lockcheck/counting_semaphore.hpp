#pragma once
// lockcheck::CountingSemaphore: the `semaphore` variant (a Redis sorted set of permits, each a lease with an
// owner) behind an interface modelled on std::counting_semaphore.
//
//   lockcheck::Client client({.host = "127.0.0.1", .port = 6379});
//   lockcheck::CountingSemaphore pool(client, "pool:db", 4, {.lock = {.ttl = std::chrono::seconds(10)}});
//   if (pool.try_acquire_for(std::chrono::seconds(2))) {   // one of 4 permits, held by this thread
//     if (!pool.lost()) { /* use the connection */ }
//     pool.release();
//   }
//
// Where Redisson's RSemaphore is a bare counter, every permit here is a lease: its id scored by a deadline on
// the Redis server's clock. A holder that dies (or stops renewing) loses its permit after the TTL, and the next
// acquire takes it back; a release retried after a lost reply removes its own id once and can never return a
// permit twice; an acquire retried after a lost reply recognises its own id. Waiting polls with backoff within
// the budget: no waiter depends on a release message.
//
// The same lease rules as Mutex: a permit is trustworthy until lost() (validity on the monotonic clock minus the
// drift margin, as the lease says); keep the work inside the TTL, renew() it, or set options.watchdog to renew it
// in the background. Thread safety and ownership as OwnedMutex, with one difference: threads of one
// CountingSemaphore never wait for each other locally, each takes a permit of its own in Redis. The permit taken
// through acquire() / try_acquire*() belongs to the calling thread; a thread holds at most one that way (acquiring
// again from it throws InvalidArgument) and release() by a thread that holds none releases nothing and is
// reported. For more permits per thread, or permits handed between threads, use the lease-level API. Time
// bounds: acquire() and try_acquire_for() return within their wait plus the retry budget's timeouts; release()
// never throws.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "lockcheck/mutex_options.hpp"
#include "lockcheck/owned_mutex.hpp"
#include "lockcheck/variants/semaphore_lock.hpp"

namespace lockcheck {

class CountingSemaphore : private OwnedMutex {
 public:
  // `permits`: how many holders at once (at least 1; every client of the key must agree on it). Throws
  // InvalidArgument for an empty key, no permits or options out of range.
  CountingSemaphore(Client& client, std::string key, std::uint32_t permits, MutexOptions options = {});

  // Takes a permit for the calling thread, waiting up to MutexOptions::lock_wait; throws LockTimeout after it
  // (and UnknownOutcome, ConnectionError, RedisError as Mutex::lock()).
  void acquire() { lock_in(HoldMode::shared); }
  bool try_acquire() { return try_lock_in(Micros::zero(), HoldMode::shared); }
  template <typename Rep, typename Period>
  bool try_acquire_for(const std::chrono::duration<Rep, Period>& timeout) {
    return try_lock_in(std::chrono::duration_cast<Micros>(timeout), HoldMode::shared);
  }
  template <typename ClockType, typename Duration>
  bool try_acquire_until(const std::chrono::time_point<ClockType, Duration>& deadline) {
    return try_lock_in(std::chrono::duration_cast<Micros>(deadline - ClockType::now()), HoldMode::shared);
  }
  // Returns the calling thread's permit; never throws (problems go to MutexOptions::on_release_problem).
  void release() noexcept { unlock(); }

  // The calling thread's permit, as OwnedMutex says of its lease.
  using OwnedMutex::lease;
  using OwnedMutex::lost;
  using OwnedMutex::renew;
  using OwnedMutex::key;

  // Lease-level API, independent of the threads' permits: each call takes or returns one permit of its own.
  // std::nullopt when every permit stayed out for the whole wait. Throws on errors.
  std::optional<Lease> try_acquire_lease(Micros wait);
  ReleaseStatus release(Lease& lease);
  RenewStatus renew(Lease& lease);

  // How many holders the semaphore admits at once (std::counting_semaphore's max(), for this key).
  std::uint32_t max() const { return permits_; }

 private:
  std::uint32_t permits_;
};

}  // namespace lockcheck
