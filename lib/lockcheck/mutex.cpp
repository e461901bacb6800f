#include "lockcheck/mutex.hpp"

#include <fmt/format.h>

#include "lockcheck/errors.hpp"
#include "lockcheck/variants/token_lock.hpp"

namespace lockcheck {
namespace {

std::optional<Lease> lease_or_throw(AcquireResult result, const std::string& key) {
  switch (result.status) {
    case AcquireStatus::acquired: return std::move(result.lease);
    case AcquireStatus::busy: return std::nullopt;
    case AcquireStatus::unreachable:
      throw ConnectionError(fmt::format("lock '{}': Redis unreachable: {}", key, result.detail));
    case AcquireStatus::unknown:
      throw UnknownOutcome(fmt::format("lock '{}': {}", key, result.detail));
  }
  return std::nullopt;
}

}  // namespace

Mutex::Mutex(Client& client, std::string key, MutexOptions options)
    : OwnedMutex(client, std::move(key), settings_of(options, "token"), build_renewed_if_asked<TokenLock>(options)) {}

std::optional<Lease> Mutex::try_acquire(Micros wait) {
  return lease_or_throw(run_sync(algorithm().acquire(key(), wait)), key());
}

ReleaseStatus Mutex::release(Lease& lease) { return run_sync(algorithm_for(lease, "release").release(lease)); }

RenewStatus Mutex::renew(Lease& lease) { return run_sync(algorithm_for(lease, "renew").renew(lease)); }

Guard Mutex::guard() {
  std::optional<Lease> lease = try_acquire(lock_wait());
  if (!lease) {
    throw LockTimeout(fmt::format("lock '{}' still held by another owner after waiting {} ms", key(),
                                  std::chrono::duration_cast<Millis>(lock_wait()).count()));
  }
  return Guard(*this, std::move(*lease));
}

Guard::Guard(Guard&& other) noexcept : mutex_(other.mutex_), lease_(std::exchange(other.lease_, std::nullopt)) {}

Guard& Guard::operator=(Guard&& other) noexcept {
  if (this != &other) {
    release_quietly();
    mutex_ = other.mutex_;
    lease_ = std::exchange(other.lease_, std::nullopt);
  }
  return *this;
}

Guard::~Guard() { release_quietly(); }

bool Guard::renew() { return lease_ && mutex_->renew(*lease_) == RenewStatus::renewed; }

ReleaseStatus Guard::release() {
  if (!lease_) return ReleaseStatus::not_owned;
  Lease lease = std::move(*lease_);
  lease_.reset();
  return mutex_->release(lease);
}

void Guard::release_quietly() noexcept {
  if (!lease_) return;
  try {
    const ReleaseStatus status = release();
    if (status == ReleaseStatus::not_owned) {
      mutex_->report(fmt::format("lock '{}' had expired before the guard released it", mutex_->key()));
    } else if (status == ReleaseStatus::unknown) {
      mutex_->report(fmt::format("release of lock '{}' got no reply; it expires by its TTL", mutex_->key()));
    }
  } catch (const std::exception& error) {
    mutex_->report(fmt::format("release of lock '{}' failed: {}", mutex_->key(), error.what()));
  }
}

}  // namespace lockcheck
