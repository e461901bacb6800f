#pragma once
// lockcheck::FairMutex: the `fair` variant (the token lock plus a first-come, first-served queue in Redis)
// behind the standard Lockable / TimedLockable interface, as Mutex.
//
//   lockcheck::Client client({.host = "127.0.0.1", .port = 6379});
//   lockcheck::FairMutex mutex(client, "ledger", {.lock = {.ttl = std::chrono::seconds(10)}});
//   {
//     std::lock_guard hold(mutex);        // waits its turn, up to MutexOptions::lock_wait
//     if (!mutex.lost()) { /* critical section */ }
//   }
//
// Where Redisson's RFairLock scores its waiters' timeouts with the calling clients' wall clocks and wakes a
// waiter by one message, here each waiter's place lapses on the Redis SERVER's clock (one waiter lease, half the
// TTL, after its last poll) and waiters poll within a quarter of that lease: a client whose clock is off cannot
// purge a live waiter, a dead waiter holds the others back for at most one waiter lease, and a lost message
// cannot strand anyone. Waiters that keep polling are granted in the order they arrived, across every process
// that uses the key; a waiter that gives up leaves the queue.
//
// The same lease, validity, fencing and thread rules as Mutex: the lease is trustworthy until lost() (validity on
// the monotonic clock minus the drift margin); keep the work inside the TTL, renew() it, or set options.watchdog
// to renew it in the background; no fencing token (use FencedMutex where the resource can check one). The lease
// taken through lock() / try_lock*() belongs to the calling thread; other threads of this FairMutex wait for it
// locally (in their own order, which Redis does not see). Not reentrant: locking it again from the thread that
// holds it throws InvalidArgument. Time bounds: lock() and try_lock_for() return within their wait plus the retry
// budget's timeouts; unlock() never throws.
#include <optional>
#include <string>

#include "lockcheck/mutex_options.hpp"
#include "lockcheck/owned_mutex.hpp"
#include "lockcheck/variants/fair_lock.hpp"

namespace lockcheck {

class FairMutex : public OwnedMutex {
 public:
  // Throws InvalidArgument for an empty key or options out of range.
  FairMutex(Client& client, std::string key, MutexOptions options = {});

  // Lease-level API, independent of the lease held through lock(): waits its turn up to `wait`; std::nullopt
  // when the lock stayed held (or others stayed ahead) all along. Throws on errors.
  std::optional<Lease> try_acquire(Micros wait);
  ReleaseStatus release(Lease& lease);
  RenewStatus renew(Lease& lease);
  using OwnedMutex::renew;
};

}  // namespace lockcheck
