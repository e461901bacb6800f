#pragma once
// How one thread of a client process reaches the lock: the variant itself (one thread per process, as the
// catalogue studies it) or, with threads_per_process > 1, the public type's core (OwnedLock) that the
// process's threads share, as the owner `owner`. The workload (workload.hpp) drives the lock through it, on
// the simulator's coroutines and on the redis backend's real threads alike.
#include <string>

#include "lockcheck/lock_algorithm.hpp"
#include "lockcheck/owned_lock.hpp"

namespace lockcheck::sim {

struct ThreadLock {
  LockAlgorithm* variant = nullptr;
  OwnedLock* shared = nullptr;
  OwnerId owner = 0;  // also the history's "thread"; 0 with one thread per process

  Task<AcquireResult> acquire(const std::string& key, Micros wait, bool reader) {
    if (shared != nullptr) co_return co_await shared->acquire(owner, wait, reader ? HoldMode::shared : HoldMode::exclusive);
    if (reader) co_return co_await variant->acquire_shared(key, wait);
    co_return co_await variant->acquire(key, wait);
  }
  Task<ReleaseStatus> release(Lease& lease, bool reader) {
    if (shared != nullptr) co_return co_await shared->release(owner);
    if (reader) co_return co_await variant->release_shared(lease);
    co_return co_await variant->release(lease);
  }
  // The lease as the lock object knows it now (a careful holder asks this before writing).
  Lease current(const Lease& acquired) const {
    if (shared == nullptr) return acquired;
    return shared->lease(owner).value_or(acquired);
  }
  int thread() const { return static_cast<int>(owner); }
};

}  // namespace lockcheck::sim
