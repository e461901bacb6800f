#include "lockcheck/owned_mutex.hpp"

#include <fmt/format.h>

#include <cstdio>

namespace lockcheck {

LockAlgorithm& OwnedMutex::algorithm_for(const Lease& lease, const char* operation) {
  if (lease.token.empty()) {
    throw InvalidArgument(
        fmt::format("{} of lock '{}': the lease holds nothing (no acquire returned it)", operation, key()));
  }
  return *algorithm_;
}

OwnedMutex::OwnedMutex(Client& client, std::string key, OwnedMutexSettings settings, const BuildAlgorithm& build)
    : settings_(std::move(settings)),
      algorithm_(build(client, spawner_)),
      core_(*algorithm_, client.clock(), std::move(key), settings_.owned) {
  validate_lock_key(core_.key());
  if (settings_.lock_wait < Micros::zero()) throw InvalidArgument("lock_wait must not be negative");
}

bool OwnedMutex::try_lock_in(Micros wait, HoldMode mode) {
  AcquireResult result = run_sync(core_.acquire(this_thread_owner(), wait, mode));
  switch (result.status) {
    case AcquireStatus::acquired: return true;
    case AcquireStatus::busy: return false;
    case AcquireStatus::unreachable:
      throw ConnectionError(fmt::format("lock '{}': Redis unreachable: {}", key(), result.detail));
    case AcquireStatus::unknown: throw UnknownOutcome(fmt::format("lock '{}': {}", key(), result.detail));
  }
  return false;
}

void OwnedMutex::lock_in(HoldMode mode) {
  if (!try_lock_in(settings_.lock_wait, mode)) {
    throw LockTimeout(fmt::format("lock '{}' still held by another owner after waiting {} ms", key(),
                                  std::chrono::duration_cast<Millis>(settings_.lock_wait).count()));
  }
}

void OwnedMutex::lock() { lock_in(HoldMode::exclusive); }

void OwnedMutex::unlock() noexcept {
  const OwnerId owner = this_thread_owner();
  if (core_.holds(owner) == 0) {
    report(fmt::format("unlock of '{}' by a thread that holds no lease of it: nothing released", key()));
    return;
  }
  try {
    const ReleaseStatus status = run_sync(core_.release(owner));
    if (status == ReleaseStatus::not_owned) {
      report(fmt::format("lock '{}' had expired before unlock: the critical section outlived the TTL", key()));
    } else if (status == ReleaseStatus::unknown) {
      report(fmt::format("release of lock '{}' got no reply; it expires by its TTL", key()));
    }
  } catch (const std::exception& error) {
    report(fmt::format("release of lock '{}' failed: {}", key(), error.what()));
  }
}

bool OwnedMutex::renew() { return run_sync(core_.renew(this_thread_owner())) == RenewStatus::renewed; }

void OwnedMutex::report(const std::string& message) const noexcept {
  try {
    if (settings_.on_release_problem) {
      settings_.on_release_problem(message);
    } else {
      std::fprintf(stderr, "lockcheck: %s\n", message.c_str());
    }
  } catch (...) {
    // A throwing handler must not turn unlock() into a throwing function.
  }
}

}  // namespace lockcheck
