// The lock code's running invariants fire when a lock under the watchdog breaks them: a renewal that did not
// succeed must leave the lease's validity where it was (a holder would otherwise trust a lease the server
// never extended).
#include <gtest/gtest.h>

#include "lockcheck/variants/watchdog_lock.hpp"
#include "step_clock.hpp"

namespace lockcheck {
namespace {

using testing::InlineSpawner;
using testing::StepClock;

// Grants every acquire; its renew answers `answer`, and `lies` makes it move the validity anyway.
class RenewingLock final : public LockAlgorithm {
 public:
  RenewingLock(Clock& clock, RenewStatus answer, bool lies) : clock_(clock), answer_(answer), lies_(lies) {}
  Task<AcquireResult> acquire(std::string key, Micros) override {
    AcquireResult result;
    result.status = AcquireStatus::acquired;
    result.lease = Lease{key, "t1", clock_.monotonic_now(), clock_.monotonic_now() + Micros(30'000'000), 0, false, &clock_};
    co_return result;
  }
  Task<ReleaseStatus> release(Lease&) override { co_return ReleaseStatus::released; }
  Task<RenewStatus> renew(Lease& lease) override {
    ++renewals;
    if (lies_) lease.valid_until += Micros(1'000'000);
    co_return answer_;
  }
  int renewals = 0;

 private:
  Clock& clock_;
  RenewStatus answer_;
  bool lies_;
};

WatchdogOptions stop_after(Millis max_hold) {
  WatchdogOptions options;
  options.max_hold = max_hold;
  return options;
}

TEST(WatchdogInvariants, AnUnknownRenewalThatLeavesTheValidityAloneRunsOn) {
  StepClock clock;
  InlineSpawner spawner;
  auto inner = std::make_unique<RenewingLock>(clock, RenewStatus::unknown, false);
  RenewingLock& renewing = *inner;
  WatchdogLock watchdog(std::move(inner), clock, spawner, Millis(3000), stop_after(Millis(10'000)));
  const AcquireResult result = run_sync(watchdog.acquire("k", Micros(0)));
  EXPECT_EQ(result.status, AcquireStatus::acquired);
  EXPECT_GT(renewing.renewals, 5);  // renewed every second until max_hold
}

TEST(WatchdogInvariantsDeathTest, AFailedRenewalNeverExtendsTheValidity) {
  for (const RenewStatus failed : {RenewStatus::unknown, RenewStatus::lost}) {
    StepClock clock;
    InlineSpawner spawner;
    WatchdogLock watchdog(std::make_unique<RenewingLock>(clock, failed, true), clock, spawner, Millis(3000),
                          stop_after(Millis(10'000)));
    EXPECT_DEATH(run_sync(watchdog.acquire("k", Micros(0))), "lockcheck invariant broken");
  }
}

}  // namespace
}  // namespace lockcheck
