#include "lockcheck/broken/client_reentrant_lock.hpp"

#include "lockcheck/variants/token_lock.hpp"

namespace lockcheck::broken {
namespace {

WatchdogOptions with_cap(WatchdogOptions options) {
  if (options.max_renewals == 0) options.max_renewals = ClientReentrantLock::kDefaultMaxRenewals;
  return options;
}

}  // namespace

ClientReentrantLock::ClientReentrantLock(Port& port, Clock& clock, Entropy& entropy, const LockOptions& options,
                                         Spawner& spawner, WatchdogOptions watchdog)
    : WatchdogLock(std::make_unique<TokenLock>(port, clock, entropy, options), clock, spawner, options.ttl,
                   with_cap(std::move(watchdog))) {}

Task<AcquireResult> ClientReentrantLock::acquire(std::string key, Micros wait) {
  {
    std::lock_guard lock(holds_mutex_);
    auto held = holds_.find(key);
    if (held != holds_.end()) {  // reentry: counted here, Redis is not asked
      ++held->second.count;
      AcquireResult result;
      result.status = AcquireStatus::acquired;
      result.lease = held->second.lease;
      co_return result;
    }
  }
  AcquireResult result = co_await WatchdogLock::acquire(key, wait);
  if (result.status == AcquireStatus::acquired) {
    std::lock_guard lock(holds_mutex_);
    holds_[key] = Hold{*result.lease, 1};
  }
  co_return result;
}

Task<AcquireResult> ClientReentrantLock::acquire_with_ttl(std::string key, Micros wait, Millis ttl) {
  (void)ttl;  // the article's class has one TTL for every acquire
  return acquire(std::move(key), wait);
}

Task<ReleaseStatus> ClientReentrantLock::release(Lease& lease) {
  {
    std::lock_guard lock(holds_mutex_);
    auto held = holds_.find(lease.key);
    if (held != holds_.end() && held->second.lease.token == lease.token && --held->second.count > 0) {
      co_return ReleaseStatus::released;  // an inner release: the outer hold keeps the lock
    }
    if (held != holds_.end() && held->second.lease.token == lease.token) holds_.erase(held);
  }
  ReleaseStatus status = co_await WatchdogLock::release(lease);
  // The article's shared `isOpenExpirationRenewal = false`: one unlock switches renewal off for every lock.
  stop_all_renewals();
  co_return status;
}

}  // namespace lockcheck::broken
