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
// Thread safety and ownership: every member of Mutex may be called from any thread concurrently. The lease
// taken through lock() / try_lock*() belongs to the thread that took it, as with std::timed_mutex (and
// Redisson's thread-owned RLock): while one thread holds it, another thread's lock() waits for it locally,
// within that thread's own wait budget, instead of racing it in Redis (where it could take the key once the
// holder's TTL ran out and mix the two leases up). lost(), lease() and renew() are about the calling thread's
// own lease (a thread that holds none sees lost() == true and no lease); unlock() by a thread that holds
// nothing releases nothing (another thread's lease least of all) and is reported to on_release_problem. A
// Mutex is not reentrant: locking it again from the thread that holds it throws InvalidArgument. A thread
// that ends while holding leaves the Mutex held (as std::mutex). Guards and the lease-level API own their
// leases and do not go through this per-thread ownership. A Guard, like std::unique_lock, is used by one
// thread at a time and may be moved to another. Tested under ThreadSanitizer
// (lib/test/thread_safety_redis_test.cpp).
// Time bounds: lock() and try_lock_for() return within their wait plus the retry budget's timeouts (see
// LockOptions::retry); unlock() and ~Guard() never throw and never wait longer than the release retries.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

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
  // Wait, within the budget (lock(): MutexOptions::lock_wait), first for another thread of this Mutex to
  // unlock, then for the Redis lock.
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
  // Releases the calling thread's lease; a thread that holds none is reported, and nothing is released.
  void unlock() noexcept;

  // True when the calling thread holds no lease through lock()/try_lock*(), or its lease can no longer be
  // trusted. Takes no lock.
  bool lost() const;
  // The calling thread's lease held through lock()/try_lock*(), if any. Takes no lock.
  std::optional<Lease> lease() const;
  // Extends the calling thread's lease (for long sections). False when it holds none or the lock was lost.
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
  bool held_by_caller() const { return owner_.load() == std::this_thread::get_id(); }
  // Gives up this thread's ownership and wakes a thread waiting for it.
  void disown() noexcept;
  void report(const std::string& message) const noexcept;

  Client& client_;
  std::string key_;
  MutexOptions options_;
  ThreadSpawner spawner_;
  std::unique_ptr<LockAlgorithm> lock_;  // TokenLock, or WatchdogLock over one
  // The thread that holds the lease taken through lock()/try_lock*(), or is acquiring it; std::thread::id()
  // when none. Changed under owner_mutex_ (waiters wait on owner_free_); read without it by a thread asking
  // whether it is the owner, which only that thread's own writes can make true.
  std::atomic<std::thread::id> owner_{};
  std::mutex owner_mutex_;
  std::condition_variable owner_free_;
  // The owner's lease: read and written only by the thread that is owner_, so it needs no lock (ownership
  // passes through owner_mutex_, which orders one owner's last use before the next owner's first).
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
