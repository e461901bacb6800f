#include "lockcheck/mutex_options.hpp"

namespace lockcheck {

OwnedMutexSettings settings_of(const MutexOptions& options, bool reentrant) {
  return OwnedMutexSettings{.lock_wait = options.lock_wait,
                            .on_release_problem = options.on_release_problem,
                            .owned = {.reentrant = reentrant}};
}

std::unique_ptr<LockAlgorithm> renewed_if_asked(std::unique_ptr<LockAlgorithm> lock, Client& client, Spawner& spawner,
                                                const MutexOptions& options) {
  if (!options.watchdog) return lock;
  return std::make_unique<WatchdogLock>(std::move(lock), client.clock(), spawner, options.lock.ttl, *options.watchdog);
}

}  // namespace lockcheck
