#include "lockcheck/mutex.hpp"

#include <fmt/format.h>

#include <cstdio>

#include "lockcheck/errors.hpp"

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
    : client_(client),
      key_(std::move(key)),
      options_(std::move(options)),
      lock_(std::make_unique<TokenLock>(client.port(), client.clock(), client.entropy(), options_.lock)) {
  if (options_.watchdog) {
    lock_ = std::make_unique<WatchdogLock>(std::move(lock_), client.clock(), spawner_, options_.lock.ttl,
                                           *options_.watchdog);
  }
  validate_lock_key(key_);
  if (options_.lock_wait < Micros::zero()) throw InvalidArgument("lock_wait must not be negative");
}

std::optional<Lease> Mutex::try_acquire(Micros wait) {
  return lease_or_throw(run_sync(lock_->acquire(key_, wait)), key_);
}

ReleaseStatus Mutex::release(Lease& lease) { return run_sync(lock_->release(lease)); }

RenewStatus Mutex::renew(Lease& lease) { return run_sync(lock_->renew(lease)); }

bool Mutex::try_acquire_held(Micros wait) {
  std::optional<Lease> lease = try_acquire(std::max(wait, Micros::zero()));
  if (!lease) return false;
  std::lock_guard state(state_mutex_);
  held_ = std::move(lease);
  return true;
}

void Mutex::lock() {
  if (!try_acquire_held(options_.lock_wait)) {
    throw LockTimeout(fmt::format("lock '{}' still held by another owner after waiting {} ms", key_,
                                  std::chrono::duration_cast<Millis>(options_.lock_wait).count()));
  }
}

bool Mutex::try_lock() { return try_acquire_held(Micros::zero()); }

void Mutex::unlock() noexcept {
  std::optional<Lease> lease;
  {
    // Take the lease out before releasing, so a thread that acquires next can store its own.
    std::lock_guard state(state_mutex_);
    lease = std::exchange(held_, std::nullopt);
  }
  if (!lease) {
    report(fmt::format("unlock of '{}' without a held lease", key_));
    return;
  }
  try {
    const ReleaseStatus status = release(*lease);
    if (status == ReleaseStatus::not_owned) {
      report(fmt::format("lock '{}' had expired before unlock: the critical section outlived the TTL", key_));
    } else if (status == ReleaseStatus::unknown) {
      report(fmt::format("release of lock '{}' got no reply; it expires by its TTL", key_));
    }
  } catch (const std::exception& error) {
    report(fmt::format("release of lock '{}' failed: {}", key_, error.what()));
  }
}

bool Mutex::lost() const {
  std::lock_guard state(state_mutex_);
  return !held_ || held_->lost();
}

std::optional<Lease> Mutex::lease() const {
  std::lock_guard state(state_mutex_);
  return held_;
}

bool Mutex::renew() {
  std::optional<Lease> lease = this->lease();
  if (!lease) return false;
  const RenewStatus status = renew(*lease);
  std::lock_guard state(state_mutex_);
  if (held_ && held_->token == lease->token) held_ = lease;
  return status == RenewStatus::renewed;
}

Guard Mutex::guard() {
  std::optional<Lease> lease = try_acquire(options_.lock_wait);
  if (!lease) {
    throw LockTimeout(fmt::format("lock '{}' still held by another owner after waiting {} ms", key_,
                                  std::chrono::duration_cast<Millis>(options_.lock_wait).count()));
  }
  return Guard(*this, std::move(*lease));
}

void Mutex::report(const std::string& message) const noexcept {
  try {
    if (options_.on_release_problem) {
      options_.on_release_problem(message);
    } else {
      std::fprintf(stderr, "lockcheck: %s\n", message.c_str());
    }
  } catch (...) {
    // A throwing handler must not turn unlock() into a throwing function.
  }
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
