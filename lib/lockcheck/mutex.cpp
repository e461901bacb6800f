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
  if (held_by_caller()) {
    throw InvalidArgument(fmt::format("lock '{}' is already held by this thread: a Mutex is not reentrant", key_));
  }
  const auto give_up_at = std::chrono::steady_clock::now() + std::max(wait, Micros::zero());
  {
    // Another thread of this Mutex holds it (or is acquiring it): wait here, not in Redis.
    std::unique_lock owner(owner_mutex_);
    if (!owner_free_.wait_until(owner, give_up_at, [this] { return owner_.load() == std::thread::id(); })) {
      return false;
    }
    owner_.store(std::this_thread::get_id());
  }
  std::optional<Lease> lease;
  try {
    const auto left = std::chrono::duration_cast<Micros>(give_up_at - std::chrono::steady_clock::now());
    lease = try_acquire(std::max(left, Micros::zero()));
  } catch (...) {
    disown();
    throw;
  }
  if (!lease) {
    disown();
    return false;
  }
  held_ = std::move(lease);
  return true;
}

void Mutex::disown() noexcept {
  {
    std::lock_guard owner(owner_mutex_);
    owner_.store(std::thread::id());
  }
  owner_free_.notify_one();
}

void Mutex::lock() {
  if (!try_acquire_held(options_.lock_wait)) {
    throw LockTimeout(fmt::format("lock '{}' still held by another owner after waiting {} ms", key_,
                                  std::chrono::duration_cast<Millis>(options_.lock_wait).count()));
  }
}

bool Mutex::try_lock() { return try_acquire_held(Micros::zero()); }

void Mutex::unlock() noexcept {
  if (!held_by_caller()) {
    report(fmt::format("unlock of '{}' by a thread that holds no lease of it: nothing released", key_));
    return;
  }
  std::optional<Lease> lease = std::exchange(held_, std::nullopt);
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
  // Only now: the thread that waited for this one finds the key free in Redis.
  disown();
}

bool Mutex::lost() const { return !held_by_caller() || !held_ || held_->lost(); }

std::optional<Lease> Mutex::lease() const {
  if (!held_by_caller()) return std::nullopt;
  return held_;
}

bool Mutex::renew() { return held_by_caller() && held_ && renew(*held_) == RenewStatus::renewed; }

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
