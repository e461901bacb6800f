#pragma once
// lockcheck::RedissonMutex: the `redisson-like` lock (Redisson's RLock rebuilt) behind Lockable /
// TimedLockable: reentrant per thread (a thread may lock it again and must unlock it as often; only its last
// unlock releases in Redis), always renewed by the watchdog (options.watchdog, default settings when unset),
// and waiters woken by the release's pub/sub message instead of polling.
//
//   lockcheck::RedissonMutex mutex(client, "orders:42");
//   std::lock_guard outer(mutex);
//   { std::lock_guard inner(mutex); /* reentry: no Redis round trip */ }
//
// Survives sections longer than the TTL while the process lives and reaches Redis; not a pause longer than
// the TTL (renewal is paused too) nor a failover that loses the key. Per-thread ownership as OwnedMutex.
#include "lockcheck/mutex_options.hpp"
#include "lockcheck/variants/redisson_like_lock.hpp"

namespace lockcheck {

class RedissonMutex : public OwnedMutex {
 public:
  // Throws InvalidArgument for an empty key or options out of range.
  RedissonMutex(Client& client, std::string key, MutexOptions options = {})
      : OwnedMutex(client, std::move(key), settings_of(options, "redisson-like"), [&options](Client& on, Spawner& spawner) {
          return std::make_unique<RedissonLikeLock>(on.port(), on.clock(), on.entropy(), options.lock, spawner,
                                                    options.watchdog.value_or(WatchdogOptions{}));
        }) {}

  // How many times the calling thread holds it (0: not at all).
  std::uint32_t holds() const { return hold_count(); }
};

}  // namespace lockcheck
