#pragma once
// The options every public lock type (Mutex, FencedMutex, ReplicatedMutex, RedlockMutex, RedissonMutex,
// SharedMutex) takes, and how they become the algorithm and the synchronous wrapper's settings.
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "lockcheck/client.hpp"
#include "lockcheck/lock_options.hpp"
#include "lockcheck/owned_mutex.hpp"
#include "lockcheck/variants/watchdog_lock.hpp"

namespace lockcheck {

struct MutexOptions {
  LockOptions lock;
  // lock() gives up and throws LockTimeout after waiting this long: no wait is unbounded.
  Micros lock_wait{std::chrono::minutes(10)};
  // Called (never thrown) when unlock() or a Guard (Mutex)'s destructor could not release cleanly: the lease had
  // already been lost, or Redis could not be reached. The default writes one line to stderr.
  std::function<void(const std::string& message)> on_release_problem{};
  // Set: a background thread renews the held lock every ttl/3 (the `watchdog` variant), so sections may
  // run longer than the TTL; lost() turns true, and watchdog->on_lost is called, as soon as renewal finds
  // the lock gone. Renewal stops before unlock() releases, and after watchdog->max_hold at the latest.
  std::optional<WatchdogOptions> watchdog{};
};

// The wrapper's settings from the options, with what the public type serving `variant` asks of its core
// (public_types.hpp: RedissonMutex counts a thread's holds), so the simulator configures the core alike.
OwnedMutexSettings settings_of(const MutexOptions& options, std::string_view variant);

// `lock`, renewed by the watchdog when options.watchdog is set.
std::unique_ptr<LockAlgorithm> renewed_if_asked(std::unique_ptr<LockAlgorithm> lock, Client& client, Spawner& spawner,
                                                const MutexOptions& options);

// Builds `Algorithm` (constructed from the client's seams, options.lock and `extra`), renewed if asked.
template <typename Algorithm, typename... Extra>
OwnedMutex::BuildAlgorithm build_renewed_if_asked(const MutexOptions& options, Extra... extra) {
  return [&options, extra...](Client& client, Spawner& spawner) {
    return renewed_if_asked(
        std::make_unique<Algorithm>(client.port(), client.clock(), client.entropy(), options.lock, extra...), client,
        spawner, options);
  };
}

}  // namespace lockcheck
