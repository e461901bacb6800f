#include "lockcheck/variants/watchdog_lock.hpp"

#include <exception>

#include "lockcheck/assert.hpp"
#include "lockcheck/errors.hpp"

namespace lockcheck {

void validate_watchdog_options(const WatchdogOptions& options) {
  if (options.renew_divisor < 2) throw InvalidArgument("watchdog renew_divisor must be at least 2 (renew before the TTL ends)");
  if (options.max_hold <= Millis::zero()) throw InvalidArgument("watchdog max_hold must be positive");
}

WatchdogLock::WatchdogLock(std::unique_ptr<LockAlgorithm> inner, Clock& clock, Spawner& spawner, Millis ttl,
                           WatchdogOptions options)
    : WatchdogLock(std::move(inner), clock, spawner, ttl, std::move(options), true) {}

WatchdogLock::WatchdogLock(std::unique_ptr<LockAlgorithm> inner, Clock& clock, Spawner& spawner, Millis ttl,
                           WatchdogOptions options, bool fail_stop)
    : inner_(std::move(inner)), clock_(clock), spawner_(spawner), ttl_(ttl), options_(std::move(options)),
      fail_stop_(fail_stop) {
  validate_watchdog_options(options_);
  if (inner_ == nullptr) throw InvalidArgument("watchdog needs an inner lock");
}

WatchdogLock::~WatchdogLock() {
  // Loops still running (leases never released) stop now; production handles join their threads as they go.
  std::map<std::string, Watch> watches;
  {
    std::lock_guard lock(watches_mutex_);
    watches = std::move(watches_);
  }
  for (auto& [token, watch] : watches) {
    LOCKCHECK_ASSERT(watch.holds > 0 && watch.renewal != nullptr);  // a watch with no hold left was erased
    watch.renewal->stop().request();
  }
  // Destroying the handles joins production threads (they are all stopping now).
}

Task<AcquireResult> WatchdogLock::acquire(std::string key, Micros wait) {
  AcquireResult result = co_await inner_->acquire(std::move(key), wait);
  if (result.status == AcquireStatus::acquired) watch(*result.lease);
  co_return result;
}

Task<AcquireResult> WatchdogLock::acquire_with_ttl(std::string key, Micros wait, Millis ttl) {
  AcquireResult result = co_await inner_->acquire_with_ttl(std::move(key), wait, ttl);
  if (result.status == AcquireStatus::acquired) watch(*result.lease);
  co_return result;
}

Task<AcquireResult> WatchdogLock::acquire_shared(std::string key, Micros wait) {
  AcquireResult result = co_await inner_->acquire_shared(std::move(key), wait);
  if (result.status == AcquireStatus::acquired) watch(*result.lease);
  co_return result;
}

namespace {

// The loop can't renew any more once stop_watching() returns; it is woken (so its thread is free) only after
// the release went out, and also when the release throws.
struct WakeLoopAfterwards {
  std::shared_ptr<LeaseRenewal> renewal;
  ~WakeLoopAfterwards() {
    if (renewal) renewal->stop().request();
  }
};

}  // namespace

Task<ReleaseStatus> WatchdogLock::release(Lease& lease) {
  WakeLoopAfterwards wake;
  wake.renewal = co_await stop_watching(lease);
  const ReleaseStatus status = co_await inner_->release(lease);
  LOCKCHECK_ASSERT(lease.lost());  // a released lease is never counted held, whatever the server answered
  co_return status;
}

Task<ReleaseStatus> WatchdogLock::release_shared(Lease& lease) {
  WakeLoopAfterwards wake;
  wake.renewal = co_await stop_watching(lease);
  const ReleaseStatus status = co_await inner_->release_shared(lease);
  LOCKCHECK_ASSERT(lease.lost());  // as release(): the shared hold is no longer counted
  co_return status;
}

Task<RenewStatus> WatchdogLock::renew(Lease& lease) {
  const MonoTime valid_before = lease.valid_until;
  const RenewStatus status = co_await inner_->renew(lease);
  // A renew that did not succeed never extends the validity (the holder would trust what no server granted).
  LOCKCHECK_ASSERT(status == RenewStatus::renewed || lease.valid_until <= valid_before);
  co_return status;
}

void WatchdogLock::watch(Lease& lease) {
  std::lock_guard lock(watches_mutex_);
  // Forget loops that ended on their own (lost, max_hold) so the map stays as small as the leases held.
  std::erase_if(watches_, [](const auto& entry) { return entry.second.loop->finished(); });
  std::erase_if(stopping_, [](const auto& loop) { return loop->finished(); });
  auto existing = watches_.find(lease.token);
  if (existing != watches_.end()) {  // a reentrant acquire: the running loop already renews this token
    ++existing->second.holds;
    lease.renewal = existing->second.renewal;
    return;
  }
  LOCKCHECK_ASSERT(!lease.token.empty());  // only an acquired lease is watched
  auto renewal = std::make_shared<LeaseRenewal>(lease.valid_until);
  lease.renewal = renewal;
  Lease loop_lease = lease;
  loop_lease.renewal.reset();  // the loop renews its own copy and publishes through `renewal`
  Watch& entry = watches_[lease.token];
  entry.renewal = renewal;
  entry.holds = 1;
  entry.loop = spawner_.spawn(renewal_loop(std::move(loop_lease), renewal));
}

Task<std::shared_ptr<LeaseRenewal>> WatchdogLock::stop_watching(Lease& lease) {
  std::shared_ptr<Spawned> loop;
  std::shared_ptr<LeaseRenewal> renewal;
  {
    std::lock_guard lock(watches_mutex_);
    auto it = watches_.find(lease.token);
    if (it == watches_.end()) co_return nullptr;
    LOCKCHECK_ASSERT(it->second.holds > 0);  // a released hold is never counted again
    if (--it->second.holds > 0) co_return nullptr;  // an inner release of a reentrant hold: keep renewing
    renewal = it->second.renewal;
    const bool in_flight = renewal->stop_renewal();
    loop = std::move(it->second.loop);
    watches_.erase(it);
    if (!in_flight) {
      // No renewal is in flight and none can start: release at once. The caller wakes the loop afterwards;
      // keep its handle so a production task is waited for later, off this path.
      stopping_.push_back(std::move(loop));
      co_return renewal;
    }
  }
  // Strictly before the release is sent: the renewal in flight finishes first (woken from its next sleep).
  renewal->stop().request();
  co_await loop->join();
  co_return nullptr;
}

void WatchdogLock::notify(RenewalEvent::Kind kind, const Lease& lease, std::string detail) {
  LOCKCHECK_ASSERT(!lease.token.empty());  // only a watched lease is reported: watch() took an acquired one
  if (!options_.observer) return;
  RenewalEvent event;
  event.kind = kind;
  event.key = lease.key;
  event.token = lease.token;
  event.valid_until = lease.valid_until;
  event.detail = std::move(detail);
  options_.observer(event);
}

void WatchdogLock::signal_lost(const Lease& lease, LeaseRenewal& renewal, const char* why) {
  renewal.mark_lost();
  if (options_.on_lost) options_.on_lost(lease.key);
  notify(RenewalEvent::Kind::stopped, lease, why);
}

Task<void> WatchdogLock::renewal_loop(Lease lease, std::shared_ptr<LeaseRenewal> renewal) {
  const Micros interval = std::chrono::duration_cast<Micros>(ttl_) / options_.renew_divisor;
  const Micros max_hold = std::chrono::duration_cast<Micros>(options_.max_hold);
  const MonoTime hold_deadline = lease.sent_at + max_hold;
  // The loop's bound: max_hold is reached after max_hold / interval rounds at the latest.
  const std::int64_t max_rounds = max_hold / interval + 2;
  std::uint32_t renewals = 0;
  for (std::int64_t round = 0; round < max_rounds; ++round) {
    co_await clock_.sleep_unless_stopped(interval, renewal->stop());
    if (renewal->retired()) break;
    const MonoTime now = clock_.monotonic_now();
    if (now >= hold_deadline) {
      notify(RenewalEvent::Kind::stopped, lease, "max_hold reached");
      co_return;
    }
    if (options_.max_renewals > 0 && renewals >= options_.max_renewals) {
      notify(RenewalEvent::Kind::stopped, lease, "max_renewals reached");
      co_return;
    }
    if (fail_stop_ && now >= lease.valid_until) {
      // No renewal reached Redis while the validity lasted (a pause, a partition): the lock may be someone
      // else's now, so stop and tell the holder rather than keep going.
      signal_lost(lease, *renewal, "validity ran out before a renewal succeeded");
      co_return;
    }
    if (!renewal->begin_renewal()) break;  // released meanwhile
    notify(RenewalEvent::Kind::renewing, lease);
    RenewStatus status = RenewStatus::unknown;
    std::string detail;
    const MonoTime valid_before = lease.valid_until;
    try {
      status = co_await inner_->renew(lease);
    } catch (const std::exception& error) {
      detail = error.what();
    }
    renewal->end_renewal();
    // Only a renewal the server confirmed moves the validity; a lost or unknown one leaves it as it was.
    LOCKCHECK_ASSERT(status == RenewStatus::renewed ? lease.valid_until >= valid_before : lease.valid_until == valid_before);
    if (status == RenewStatus::renewed) {
      ++renewals;
      renewal->extend_to(lease.valid_until);
      notify(RenewalEvent::Kind::renewed, lease);
    } else if (status == RenewStatus::lost) {
      notify(RenewalEvent::Kind::lost, lease);
      signal_lost(lease, *renewal, "the key no longer holds our token");
      co_return;
    } else {
      notify(RenewalEvent::Kind::unknown, lease, detail);
    }
  }
  notify(RenewalEvent::Kind::stopped, lease, renewal->retired() ? "released" : "max_hold reached");
}

void WatchdogLock::stop_all_renewals() {
  std::lock_guard lock(watches_mutex_);
  for (auto& [token, watch] : watches_) watch.renewal->stop().request();
}

}  // namespace lockcheck
