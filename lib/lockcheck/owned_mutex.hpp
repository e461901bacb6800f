#pragma once
// OwnedMutex: the thin synchronous wrapper every public lock type (Mutex, FencedMutex, RedlockMutex,
// RedissonMutex, SharedMutex) shares. It runs the coroutine core (OwnedLock) to completion on the calling
// thread, with that thread as the owner, and turns the core's outcomes into the standard Lockable /
// TimedLockable behaviour: lock() waits or throws, try_lock*() says false, unlock() never throws.
//
// Thread safety and ownership: every member may be called from any thread concurrently. The lease taken
// through lock() / try_lock*() belongs to the thread that took it, as with std::timed_mutex (and Redisson's
// thread-owned RLock): while one thread holds it, another thread's lock() waits for it locally, within its
// own wait budget, instead of racing it in Redis (where it could take the key once the holder's TTL ran out
// and mix the two leases up). lost(), lease() and renew() are about the calling thread's own lease; unlock()
// by a thread that holds nothing releases nothing (another thread's lease least of all) and is reported. A
// thread that ends while holding leaves the lock held (as std::mutex) until its TTL frees it in Redis.
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "lockcheck/client.hpp"
#include "lockcheck/errors.hpp"
#include "lockcheck/lock_options.hpp"
#include "lockcheck/owned_lock.hpp"
#include "lockcheck/thread_spawner.hpp"

namespace lockcheck {

// What every public lock type's options have besides the algorithm's own.
struct OwnedMutexSettings {
  // lock() gives up and throws LockTimeout after waiting this long: no wait is unbounded.
  Micros lock_wait{std::chrono::minutes(10)};
  // Called (never thrown) when unlock() could not release cleanly: the lease had already been lost, or
  // Redis could not be reached. Empty: one line to stderr.
  std::function<void(const std::string& message)> on_release_problem{};
  OwnedLockOptions owned{};
};

class OwnedMutex {
 public:
  // Builds the algorithm, once, inside the constructor; the spawner runs its background work (a watchdog's
  // renewal loop).
  using BuildAlgorithm = std::function<std::unique_ptr<LockAlgorithm>(Client& client, Spawner& spawner)>;

  // Throws InvalidArgument for an empty key or settings out of range (and what `build` throws).
  OwnedMutex(Client& client, std::string key, OwnedMutexSettings settings, const BuildAlgorithm& build);
  OwnedMutex(const OwnedMutex&) = delete;
  OwnedMutex& operator=(const OwnedMutex&) = delete;

  // Lockable / TimedLockable. Wait, within the budget (lock(): lock_wait), first for another thread of
  // this object to unlock, then for the Redis lock.
  void lock();  // throws LockTimeout, UnknownOutcome, ConnectionError, RedisError
  bool try_lock() { return try_lock_in(Micros::zero(), HoldMode::exclusive); }
  template <typename Rep, typename Period>
  bool try_lock_for(const std::chrono::duration<Rep, Period>& timeout) {
    return try_lock_in(std::chrono::duration_cast<Micros>(timeout), HoldMode::exclusive);
  }
  template <typename ClockType, typename Duration>
  bool try_lock_until(const std::chrono::time_point<ClockType, Duration>& deadline) {
    return try_lock_in(std::chrono::duration_cast<Micros>(deadline - ClockType::now()), HoldMode::exclusive);
  }
  // Releases the calling thread's hold; a thread that holds none is reported, and nothing is released.
  void unlock() noexcept;

  // True when the calling thread holds no lease through lock()/try_lock*(), or its lease can no longer be
  // trusted. Takes no lock.
  bool lost() const { return core_.lost(this_thread_owner()); }
  // The calling thread's lease, if it holds one. Takes no lock.
  std::optional<Lease> lease() const { return core_.lease(this_thread_owner()); }
  // Extends the calling thread's lease (for long sections). False when it holds none or the lock was lost.
  bool renew();

  const std::string& key() const { return core_.key(); }

 protected:
  bool try_lock_in(Micros wait, HoldMode mode);
  void lock_in(HoldMode mode);
  LockAlgorithm& algorithm() { return *algorithm_; }
  // The algorithm, for the lease-level release and renew: throws InvalidArgument for a lease no acquire returned
  // (no token), which the algorithms take as broken invariant (they abort).
  LockAlgorithm& algorithm_for(const Lease& lease, const char* operation);
  std::uint32_t hold_count() const { return core_.holds(this_thread_owner()); }
  Micros lock_wait() const { return settings_.lock_wait; }
  void report(const std::string& message) const noexcept;

 private:
  OwnedMutexSettings settings_;
  ThreadSpawner spawner_;
  std::unique_ptr<LockAlgorithm> algorithm_;
  OwnedLock core_;
};

}  // namespace lockcheck
