#pragma once
// lockcheck::Mutex: the `token` lock behind the standard Lockable / TimedLockable interface, so
// std::lock_guard, std::unique_lock and std::scoped_lock work; plus a lease-level API and an RAII Guard.
//
//   lockcheck::Client client({.host = "127.0.0.1", .port = 6379});
//   lockcheck::Mutex mutex(client, "orders:42", {.lock = {.ttl = std::chrono::seconds(10)}});
//   {
//     std::lock_guard hold(mutex);        // waits up to MutexOptions::lock_wait
//     if (!mutex.lost()) { /* critical section */ }
//   }
//
// A Redis lock is a lease, not a mutex: it ends when its TTL runs out even if the holder is still inside.
// Check lost() (or Guard::lost()) before acting, keep sections well inside the TTL, and use a fencing
// token where the resource can check one.
//
// Thread safety and ownership (see OwnedMutex): the lease taken through lock() / try_lock*() belongs to the
// thread that took it; other threads of this Mutex wait for it locally. A Mutex is not reentrant: locking it
// again from the thread that holds it throws InvalidArgument. Guards and the lease-level API own their
// leases and do not go through this per-thread ownership. A Guard, like std::unique_lock, is used by one
// thread at a time and may be moved to another. Tested under ThreadSanitizer
// (lib/test/thread_safety_redis_test.cpp).
// Time bounds: lock() and try_lock_for() return within their wait plus the retry budget's timeouts (see
// LockOptions::retry); unlock() and ~Guard() never throw and never wait longer than the release retries.
#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include "lockcheck/mutex_options.hpp"
#include "lockcheck/owned_mutex.hpp"
#include "lockcheck/variants/token_lock.hpp"

namespace lockcheck {

class Guard;

class Mutex : public OwnedMutex {
 public:
  // Throws InvalidArgument for an empty key or options out of range.
  Mutex(Client& client, std::string key, MutexOptions options = {});

  // Lease-level API, independent of the lease held through lock().
  // Waits up to `wait`; std::nullopt when someone else held the lock all along. Throws on errors.
  std::optional<Lease> try_acquire(Micros wait);
  ReleaseStatus release(Lease& lease);
  RenewStatus renew(Lease& lease);
  using OwnedMutex::renew;
  // Waits up to MutexOptions::lock_wait and returns a Guard that releases on destruction.
  Guard guard();

 private:
  friend class Guard;
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
