#pragma once
// lockcheck::SharedMutex: the `rw-owned` read-write lock (per-reader ownership, so one reader's release or
// expiry frees only its own hold) behind SharedTimedLockable, so std::shared_lock works as well as
// std::unique_lock: many readers, or one writer.
//
//   lockcheck::SharedMutex mutex(client, "catalog", {.lock = {.ttl = std::chrono::seconds(10)}});
//   { std::shared_lock read(mutex); /* readers together */ }
//   { std::unique_lock write(mutex); /* the writer alone */ }
//
// Each thread holds in one mode at a time (no upgrade: locking exclusively while holding shared throws
// InvalidArgument). Per-thread ownership and lost() / lease() / renew() as OwnedMutex.
#include "lockcheck/mutex_options.hpp"
#include "lockcheck/variants/rw_owned_lock.hpp"

namespace lockcheck {

class SharedMutex : public OwnedMutex {
 public:
  // Throws InvalidArgument for an empty key or options out of range.
  SharedMutex(Client& client, std::string key, MutexOptions options = {})
      : OwnedMutex(client, std::move(key), settings_of(options, "rw-owned"), build_renewed_if_asked<RwOwnedLock>(options)) {}

  // SharedLockable / SharedTimedLockable.
  void lock_shared() { lock_in(HoldMode::shared); }  // throws LockTimeout, UnknownOutcome, ConnectionError
  bool try_lock_shared() { return try_lock_in(Micros::zero(), HoldMode::shared); }
  template <typename Rep, typename Period>
  bool try_lock_shared_for(const std::chrono::duration<Rep, Period>& timeout) {
    return try_lock_in(std::chrono::duration_cast<Micros>(timeout), HoldMode::shared);
  }
  template <typename ClockType, typename Duration>
  bool try_lock_shared_until(const std::chrono::time_point<ClockType, Duration>& deadline) {
    return try_lock_in(std::chrono::duration_cast<Micros>(deadline - ClockType::now()), HoldMode::shared);
  }
  // The calling thread's shared hold; its mode is remembered, so this is unlock() under its standard name.
  void unlock_shared() noexcept { unlock(); }
};

}  // namespace lockcheck
