#pragma once
// lockcheck::Mutex: the `token` lock behind the standard Lockable / TimedLockable interface, so
// std::lock_guard, std::unique_lock and std::scoped_lock work; plus a lease-level API and an RAII Guard.
//
//   lockcheck::Client client({.host = "127.0.0.1", .port = 6379});
//   lockcheck::Mutex mutex(client, "orders:42", {.ttl = std::chrono::seconds(10)});
//   {
//     std::lock_guard hold(mutex);        // waits up to MutexOptions::lock_wait
//     if (!mutex.lost()) { /* critical section */ }
//   }
//
// A Redis lock is a lease, not a mutex: it ends when its TTL runs out even if the holder is still inside.
// Check lost() (or Guard::lost()) before acting, keep sections well inside the TTL, and use a fencing
// token where the resource can check one.
//
// Thread safety: every member of Mutex may be called from any thread concurrently (lost(), lease() and
// renew() included); like std::mutex, unlock() belongs to the thread that locked, and one Mutex holds at
// most one lease through lock() at a time. A Guard, like std::unique_lock, is used by one thread at a time
// and may be moved to another. Tested under ThreadSanitizer (lib/test/thread_safety_redis_test.cpp).
// Time bounds: lock() and try_lock_for() return within their wait plus the retry budget's timeouts (see
// LockOptions::retry); unlock() and ~Guard() never throw and never wait longer than the release retries.
#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

#include "lockcheck/client.hpp"
#include "lockcheck/errors.hpp"
#include "lockcheck/thread_spawner.hpp"
#include "lockcheck/variants/token_lock.hpp"
#include "lockcheck/variants/watchdog_lock.hpp"

namespace lockcheck {

struct MutexOptions {
  LockOptions lock;
  // lock() gives up and throws LockTimeout after waiting this long: no wait is unbounded.
  Micros lock_wait{std::chrono::minutes(10)};
  // Called (never thrown) when unlock() or a Guard's destructor could not release cleanly: the lease had
  // already been lost, or Redis could not be reached. The default writes one line to stderr.
  std::function<void(const std::string& message)> on_release_problem{};
  // Set: a background thread renews the held lock every ttl/3 (the `watchdog` variant), so sections may
  // run longer than the TTL; lost() turns true, and watchdog->on_lost is called, as soon as renewal finds
  // the lock gone. Renewal stops before unlock() releases, and after watchdog->max_hold at the latest.
  std::optional<WatchdogOptions> watchdog{};
};

class Guard;

class Mutex {
 public:
  // Throws InvalidArgument for an empty key or options out of range.
  Mutex(Client& client, std::string key, MutexOptions options = {});
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  // Lockable / TimedLockable.
  void lock();  // throws LockTimeout, UnknownOutcome, ConnectionError, RedisError
  bool try_lock();
  template <typename Rep, typename Period>
  bool try_lock_for(const std::chrono::duration<Rep, Period>& timeout) {
    return try_acquire_held(std::chrono::duration_cast<Micros>(timeout));
  }
  template <typename ClockType, typename Duration>
  bool try_lock_until(const std::chrono::time_point<ClockType, Duration>& deadline) {
    return try_acquire_held(std::chrono::duration_cast<Micros>(deadline - ClockType::now()));
  }
  void unlock() noexcept;

  // True when this Mutex holds no lease, or the lease it holds can no longer be trusted.
  bool lost() const;
  // The lease held through lock()/try_lock(), if any.
  std::optional<Lease> lease() const;
  // Extends the held lease (for long sections). Returns false when the lock was lost.
  bool renew();

  // Lease-level API, independent of the lease held through lock().
  // Waits up to `wait`; std::nullopt when someone else held the lock all along. Throws on errors.
  std::optional<Lease> try_acquire(Micros wait);
  ReleaseStatus release(Lease& lease);
  RenewStatus renew(Lease& lease);
  // Waits up to MutexOptions::lock_wait and returns a Guard that releases on destruction.
  Guard guard();

  const std::string& key() const { return key_; }

 private:
  friend class Guard;
  bool try_acquire_held(Micros wait);
  void report(const std::string& message) const noexcept;

  Client& client_;
  std::string key_;
  MutexOptions options_;
  ThreadSpawner spawner_;
  std::unique_ptr<LockAlgorithm> lock_;  // TokenLock, or WatchdogLock over one
  mutable std::mutex state_mutex_;
  std::optional<Lease> held_;
};

// Owns one lease and releases it when destroyed. Movable, not copyable.
class Guard {
 public:
  Guard(Mutex& mutex, Lease lease) : mutex_(&mutex), lease_(std::move(lease)) {}
  Guard(Guard&& other) noexcept;
  Guard& operator=(Guard&& other) noexcept;
  Guard(const Guard&) = delete;
  Guard& operator=(const Guard&) = delete;
  ~Guard();

  const Lease& lease() const { return *lease_; }
  bool lost() const { return !lease_ || lease_->lost(); }
  bool renew();
  // Releases now and reports how it went; the destructor then does nothing.
  ReleaseStatus release();

 private:
  void release_quietly() noexcept;
  Mutex* mutex_;
  std::optional<Lease> lease_;
};

}  // namespace lockcheck
