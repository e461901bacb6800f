#include "lockcheck/fair_mutex.hpp"

#include <fmt/format.h>

#include "lockcheck/errors.hpp"

namespace lockcheck {

FairMutex::FairMutex(Client& client, std::string key, MutexOptions options)
    : OwnedMutex(client, std::move(key), settings_of(options, "fair"), build_renewed_if_asked<FairLock>(options)) {}

std::optional<Lease> FairMutex::try_acquire(Micros wait) {
  AcquireResult result = run_sync(algorithm().acquire(key(), wait));
  switch (result.status) {
    case AcquireStatus::acquired: return std::move(result.lease);
    case AcquireStatus::busy: return std::nullopt;
    case AcquireStatus::unreachable:
      throw ConnectionError(fmt::format("lock '{}': Redis unreachable: {}", key(), result.detail));
    case AcquireStatus::unknown: throw UnknownOutcome(fmt::format("lock '{}': {}", key(), result.detail));
  }
  return std::nullopt;
}

ReleaseStatus FairMutex::release(Lease& lease) { return run_sync(algorithm_for(lease, "release").release(lease)); }

RenewStatus FairMutex::renew(Lease& lease) { return run_sync(algorithm_for(lease, "renew").renew(lease)); }

}  // namespace lockcheck
