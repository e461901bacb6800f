#include "lockcheck/owned_lock.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>

#include "lockcheck/assert.hpp"
#include "lockcheck/errors.hpp"

namespace lockcheck {
namespace {

// Each wake-up is a release of a local slot, so a wait of any length sees far fewer; the cap only keeps the
// loop bounded should a clock never advance.
constexpr std::uint32_t kMaxLocalWakes = 1u << 20;

Micros not_negative(Micros duration) { return std::max(duration, Micros::zero()); }

}  // namespace

OwnedLock::OwnedLock(LockAlgorithm& algorithm, Clock& clock, std::string key, OwnedLockOptions options)
    : algorithm_(algorithm), clock_(clock), key_(std::move(key)), options_(options) {}

std::shared_ptr<StopSignal> OwnedLock::try_claim(OwnerId owner, HoldMode mode, bool& reentered) {
  std::lock_guard lock(mutex_);
  if (const auto held = holds_.find(owner); held != holds_.end()) {
    Hold& hold = *held->second;
    if (!options_.reentrant || hold.mode != mode || hold.count == 0) {
      throw InvalidArgument(fmt::format("lock '{}' is already held by this owner and is not reentrant{}", key_,
                                        hold.mode != mode ? " across modes" : ""));
    }
    ++hold.count;
    LOCKCHECK_ASSERT(hold.count > 1);  // a reentry stacks on a live hold, never revives a released one
    reentered = true;
    return nullptr;
  }
  const bool compatible =
      mode == HoldMode::exclusive
          ? holds_.empty()
          : std::none_of(holds_.begin(), holds_.end(),
                         [](const auto& entry) { return entry.second->mode == HoldMode::exclusive; });
  if (!compatible) return slot_freed_;
  // An exclusive claim goes only to an empty lock object; a shared one never joins an exclusive holder.
  LOCKCHECK_ASSERT(mode == HoldMode::shared || holds_.empty());
  auto hold = std::make_unique<Hold>();
  hold->mode = mode;
  holds_.emplace(owner, std::move(hold));
  return nullptr;
}

OwnedLock::Hold* OwnedLock::find(OwnerId owner) const {
  std::lock_guard lock(mutex_);
  const auto held = holds_.find(owner);
  return held == holds_.end() ? nullptr : held->second.get();
}

void OwnedLock::free_slot(OwnerId owner) noexcept {
  std::shared_ptr<StopSignal> freed;
  {
    std::lock_guard lock(mutex_);
    holds_.erase(owner);
    freed = std::exchange(slot_freed_, std::make_shared<StopSignal>());
  }
  // Outside the lock: a woken waiter's first act is to claim it.
  freed->request();
}

Task<AcquireResult> OwnedLock::acquire(OwnerId owner, Micros wait, HoldMode mode) {
  if (options_.counting) mode = HoldMode::shared;
  const MonoTime give_up_at = clock_.monotonic_now() + not_negative(wait);
  for (std::uint32_t wakes = 0;; ++wakes) {
    bool reentered = false;
    const std::shared_ptr<StopSignal> slot_freed = try_claim(owner, mode, reentered);
    if (reentered) {
      AcquireResult result;
      result.status = AcquireStatus::acquired;
      result.lease = find(owner)->lease;
      co_return result;
    }
    if (!slot_freed) break;
    const Micros left = give_up_at - clock_.monotonic_now();
    if (left <= Micros::zero() || wakes >= kMaxLocalWakes) {
      AcquireResult result;
      result.detail = "held by another owner of this lock object for the whole wait";
      co_return result;
    }
    co_await clock_.sleep_unless_stopped(left, *slot_freed);
  }
  // The slot is ours: only now may this owner go to Redis.
  AcquireResult result;
  try {
    const Micros left = not_negative(give_up_at - clock_.monotonic_now());
    // Not a conditional expression: GCC evaluates both co_await operands of one.
    if (mode == HoldMode::shared) {
      result = co_await algorithm_.acquire_shared(key_, left);
    } else {
      result = co_await algorithm_.acquire(key_, left);
    }
  } catch (...) {
    free_slot(owner);
    throw;
  }
  if (result.status != AcquireStatus::acquired) {
    free_slot(owner);
    co_return result;
  }
  {
    std::lock_guard lock(mutex_);
    Hold& hold = *holds_.at(owner);
    LOCKCHECK_ASSERT(hold.count == 0 && hold.mode == mode);  // claimed above, not yet counted
    LOCKCHECK_ASSERT(result.lease && !result.lease->token.empty());  // an acquired lease has its token
    hold.lease = result.lease;
    hold.count = 1;
  }
  co_return result;
}

Task<ReleaseStatus> OwnedLock::release(OwnerId owner) {
  Hold* hold = find(owner);
  if (hold == nullptr || hold->count == 0) co_return ReleaseStatus::not_owned;
  {
    std::lock_guard lock(mutex_);
    if (hold->count > 1) {
      --hold->count;
      co_return ReleaseStatus::released;
    }
  }
  ReleaseStatus status = ReleaseStatus::unknown;
  try {
    if (hold->mode == HoldMode::shared) {
      status = co_await algorithm_.release_shared(*hold->lease);
    } else {
      status = co_await algorithm_.release(*hold->lease);
    }
  } catch (...) {
    free_slot(owner);
    throw;
  }
  // Only now: the owner that waited for this one finds the key free in Redis.
  free_slot(owner);
  co_return status;
}

Task<RenewStatus> OwnedLock::renew(OwnerId owner) {
  Hold* hold = find(owner);
  if (hold == nullptr || hold->count == 0) co_return RenewStatus::lost;
  co_return co_await algorithm_.renew(*hold->lease);
}

bool OwnedLock::lost(OwnerId owner) const {
  const Hold* hold = find(owner);
  return hold == nullptr || hold->count == 0 || hold->lease->lost();
}

std::optional<Lease> OwnedLock::lease(OwnerId owner) const {
  const Hold* hold = find(owner);
  if (hold == nullptr || hold->count == 0) return std::nullopt;
  return hold->lease;
}

std::uint32_t OwnedLock::holds(OwnerId owner) const {
  std::lock_guard lock(mutex_);
  const auto held = holds_.find(owner);
  return held == holds_.end() ? 0 : held->second->count;
}

OwnerId this_thread_owner() {
  static std::atomic<OwnerId> next{1};
  thread_local const OwnerId mine = next.fetch_add(1);
  return mine;
}

}  // namespace lockcheck
