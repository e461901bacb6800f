#include "lockcheck/counting_semaphore.hpp"

#include <fmt/format.h>

#include "lockcheck/errors.hpp"

namespace lockcheck {

CountingSemaphore::CountingSemaphore(Client& client, std::string key, std::uint32_t permits, MutexOptions options)
    : OwnedMutex(client, std::move(key), settings_of(options, "semaphore"),
                 build_renewed_if_asked<SemaphoreLock>(options, permits)),
      permits_(permits) {}

std::optional<Lease> CountingSemaphore::try_acquire_lease(Micros wait) {
  AcquireResult result = run_sync(algorithm().acquire(key(), wait));
  switch (result.status) {
    case AcquireStatus::acquired: return std::move(result.lease);
    case AcquireStatus::busy: return std::nullopt;
    case AcquireStatus::unreachable:
      throw ConnectionError(fmt::format("semaphore '{}': Redis unreachable: {}", key(), result.detail));
    case AcquireStatus::unknown: throw UnknownOutcome(fmt::format("semaphore '{}': {}", key(), result.detail));
  }
  return std::nullopt;
}

ReleaseStatus CountingSemaphore::release(Lease& lease) {
  return run_sync(algorithm_for(lease, "release").release(lease));
}

RenewStatus CountingSemaphore::renew(Lease& lease) { return run_sync(algorithm_for(lease, "renew").renew(lease)); }

}  // namespace lockcheck
