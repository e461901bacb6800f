#pragma once
// OwnedLock: the coroutine core of the public lock types (Mutex, FencedMutex, RedlockMutex, RedissonMutex,
// SharedMutex). It gives a lock algorithm per-owner leases, as std::timed_mutex gives a mutex per-thread
// ownership: an owner is an id the caller supplies (a production thread, or a simulated thread of a client
// process), and while one owner holds the lock another owner's acquire waits here, locally, within its own
// wait budget, instead of racing the holder in Redis (where it could take the key once the holder's TTL ran
// out and the two leases would be mixed up: the single-slot design's bug, issue 15).
//
// Generic over the algorithm: it talks to Redis only through LockAlgorithm, and to time only through Clock,
// so the simulator runs it with several coroutines per process exactly as production runs it with threads.
// Thread-safe: its state is behind a std::mutex never held across an await; an owner's own lease is touched
// only by that owner, so renewals and releases of different owners run concurrently.
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "lockcheck/clock.hpp"
#include "lockcheck/lock_algorithm.hpp"
#include "lockcheck/stop_signal.hpp"

namespace lockcheck {

// Who holds a lease of an OwnedLock: std::thread in production (see this_thread_owner()), a simulated
// thread in the simulator. 0 is no owner.
using OwnerId = std::uint64_t;

enum class HoldMode { exclusive, shared };

struct OwnedLockOptions {
  // An owner that holds the lock may acquire it again and must release it as often (Redisson's RLock): the
  // holds are counted here, and only the last release goes to Redis. Not reentrant: acquiring again throws
  // InvalidArgument (std::timed_mutex would deadlock).
  bool reentrant = false;
  // A counting semaphore (CountingSemaphore): every owner holds a permit of its own, so every acquire is a shared
  // hold (the algorithm's acquire_shared) and owners never wait for each other here; Redis counts the permits.
  bool counting = false;
};

class OwnedLock {
 public:
  // `algorithm` and `clock` must outlive this object.
  OwnedLock(LockAlgorithm& algorithm, Clock& clock, std::string key, OwnedLockOptions options = {});
  OwnedLock(const OwnedLock&) = delete;
  OwnedLock& operator=(const OwnedLock&) = delete;

  // Waits up to `wait` on `clock`, first for the local holders that exclude `mode` (every holder for an
  // exclusive acquire, an exclusive one for a shared acquire), then for the Redis lock. busy when the wait
  // ran out; unreachable / unknown as the algorithm said (the owner then holds nothing). Throws
  // InvalidArgument when `owner` already holds and the lock is not reentrant (or holds in another mode).
  Task<AcquireResult> acquire(OwnerId owner, Micros wait, HoldMode mode = HoldMode::exclusive);
  // Releases `owner`'s hold (the lease itself at its last hold). not_owned, and nothing released, when
  // `owner` holds nothing: another owner's lease is never touched.
  Task<ReleaseStatus> release(OwnerId owner);
  // Extends `owner`'s lease; not_owned when it holds none.
  Task<RenewStatus> renew(OwnerId owner);

  // True when `owner` holds no lease, or its lease can no longer be trusted.
  bool lost(OwnerId owner) const;
  // A copy of `owner`'s lease, if it holds one.
  std::optional<Lease> lease(OwnerId owner) const;
  // How many holds `owner` has (reentrant locks count each acquire); 0 when none.
  std::uint32_t holds(OwnerId owner) const;

  const std::string& key() const { return key_; }

 private:
  struct Hold {
    HoldMode mode = HoldMode::exclusive;
    std::uint32_t count = 0;       // 0 while the owner is still acquiring in Redis
    std::optional<Lease> lease{};  // written only by the owner; set once count > 0
  };
  // Claims a local slot for `owner` if `mode` is compatible with the holds there are; else the signal to
  // wait on (requested when a slot is freed). Throws for a repeated hold the lock does not allow.
  std::shared_ptr<StopSignal> try_claim(OwnerId owner, HoldMode mode, bool& reentered);
  Hold* find(OwnerId owner) const;
  // Drops `owner`'s slot and wakes whoever waits for one.
  void free_slot(OwnerId owner) noexcept;

  LockAlgorithm& algorithm_;
  Clock& clock_;
  std::string key_;
  OwnedLockOptions options_;
  mutable std::mutex mutex_;
  std::map<OwnerId, std::unique_ptr<Hold>> holds_;  // ordered: deterministic in the simulator
  std::shared_ptr<StopSignal> slot_freed_ = std::make_shared<StopSignal>();
};

// The calling thread's owner id: unique for the life of the program (never reused, unlike std::thread::id).
OwnerId this_thread_owner();

}  // namespace lockcheck
