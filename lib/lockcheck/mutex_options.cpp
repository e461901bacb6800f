#include "lockcheck/mutex_options.hpp"

#include <fmt/format.h>

#include "lockcheck/errors.hpp"
#include "lockcheck/public_types.hpp"

namespace lockcheck {

OwnedMutexSettings settings_of(const MutexOptions& options, std::string_view variant) {
  const PublicType* type = public_type_of(variant);
  if (type == nullptr) throw InvalidArgument(fmt::format("variant '{}' has no public lock type", variant));
  return OwnedMutexSettings{
      .lock_wait = options.lock_wait, .on_release_problem = options.on_release_problem, .owned = type->owned};
}

std::unique_ptr<LockAlgorithm> renewed_if_asked(std::unique_ptr<LockAlgorithm> lock, Client& client, Spawner& spawner,
                                                const MutexOptions& options) {
  if (!options.watchdog) return lock;
  return std::make_unique<WatchdogLock>(std::move(lock), client.clock(), spawner, options.lock.ttl, *options.watchdog);
}

}  // namespace lockcheck
