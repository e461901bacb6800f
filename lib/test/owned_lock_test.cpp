// OwnedLock, the coroutine core of the public lock types, on a fake algorithm and a virtual clock: per-owner
// leases, the local wait before Redis, reentrant hold counting and the shared mode.
#include <gtest/gtest.h>

#include <coroutine>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "lockcheck/owned_lock.hpp"

namespace lockcheck {
namespace {

// Virtual time: sleep_unless_stopped parks the coroutine until its signal is requested or advance_to()
// passes its deadline, as the simulator's clock does.
class ParkingClock final : public Clock {
 public:
  MonoTime monotonic_now() override { return MonoTime(now_us_); }
  Millis wall_now() override { return Millis(now_us_ / 1000); }
  Task<void> sleep(Micros duration) override {
    now_us_ += duration.count();
    co_return;
  }
  Task<void> sleep_unless_stopped(Micros duration, StopSignal& stop) override {
    if (stop.requested()) co_return;
    struct Park {
      ParkingClock& clock;
      StopSignal& stop;
      std::int64_t wake_at_us;
      bool await_ready() const noexcept { return false; }
      void await_suspend(std::coroutine_handle<> handle) {
        clock.parked_.push_back({wake_at_us, handle, &stop});
        stop.on_request([&owner = clock] { owner.wake_stopped(); });
      }
      void await_resume() const noexcept {}
    };
    co_await Park{*this, stop, now_us_ + duration.count()};
  }
  // Resumes every parked coroutine whose deadline is at or before `time_us`.
  void advance_to(std::int64_t time_us) {
    now_us_ = time_us;
    resume_if([&](const Parked& parked) { return parked.wake_at_us <= now_us_; });
  }
  std::size_t parked() const { return parked_.size(); }

 private:
  struct Parked {
    std::int64_t wake_at_us;
    std::coroutine_handle<> handle;
    StopSignal* stop;
  };
  void wake_stopped() {
    resume_if([](const Parked& parked) { return parked.stop->requested(); });
  }
  template <typename Due>
  void resume_if(Due due) {
    std::vector<std::coroutine_handle<>> ready;
    for (auto it = parked_.begin(); it != parked_.end();) {
      if (due(*it)) {
        ready.push_back(it->handle);
        it = parked_.erase(it);
      } else {
        ++it;
      }
    }
    for (auto handle : ready) handle.resume();
  }
  std::int64_t now_us_ = 0;
  std::deque<Parked> parked_;
};

// One key, no TTL: counts the calls that reach "Redis".
class CountingAlgorithm final : public LockAlgorithm {
 public:
  explicit CountingAlgorithm(Clock& clock) : clock_(clock) {}
  Task<AcquireResult> acquire(std::string key, Micros) override { co_return grant(std::move(key), false); }
  Task<AcquireResult> acquire_shared(std::string key, Micros) override { co_return grant(std::move(key), true); }
  Task<ReleaseStatus> release(Lease& lease) override {
    ++releases;
    lease.known_lost = true;
    const bool ours = holders.erase(lease.token) == 1;
    co_return ours ? ReleaseStatus::released : ReleaseStatus::not_owned;
  }
  Task<RenewStatus> renew(Lease& lease) override { co_return holders.contains(lease.token) ? RenewStatus::renewed : RenewStatus::lost; }

  int acquires = 0;
  int releases = 0;
  std::map<std::string, bool> holders;  // token -> shared

 private:
  AcquireResult grant(std::string key, bool shared) {
    ++acquires;
    AcquireResult result;
    for (const auto& [token, holder_shared] : holders) {
      if (!shared || !holder_shared) return result;  // busy
    }
    Lease lease{.key = std::move(key), .token = "t" + std::to_string(acquires)};
    lease.valid_until = MonoTime(std::chrono::hours(1));
    lease.clock = &clock_;
    lease.shared = shared;
    holders[lease.token] = shared;
    result.status = AcquireStatus::acquired;
    result.lease = lease;
    return result;
  }
  Clock& clock_;
};

struct OwnedLockTest : ::testing::Test {
  ParkingClock clock;
  CountingAlgorithm algorithm{clock};
  OwnedLock lock{algorithm, clock, "orders:42"};
  static constexpr OwnerId kFirst = 1;
  static constexpr OwnerId kSecond = 2;
};

TEST_F(OwnedLockTest, ASecondOwnerWaitsLocallyNotInRedis) {
  EXPECT_EQ(run_sync(lock.acquire(kFirst, Micros::zero())).status, AcquireStatus::acquired);
  EXPECT_EQ(run_sync(lock.acquire(kSecond, Micros::zero())).status, AcquireStatus::busy);
  EXPECT_EQ(algorithm.acquires, 1) << "the second owner must not race the holder in Redis";
  EXPECT_FALSE(lock.lost(kFirst));
  EXPECT_TRUE(lock.lost(kSecond));
  EXPECT_FALSE(lock.lease(kSecond).has_value());
}

TEST_F(OwnedLockTest, AWaiterTakesOverWhenTheHolderReleases) {
  ASSERT_EQ(run_sync(lock.acquire(kFirst, Micros::zero())).status, AcquireStatus::acquired);
  Task<AcquireResult> waiter = lock.acquire(kSecond, Micros(1'000'000));
  waiter.start();
  ASSERT_FALSE(waiter.done());
  EXPECT_EQ(clock.parked(), 1u);
  EXPECT_EQ(run_sync(lock.release(kFirst)), ReleaseStatus::released);
  ASSERT_TRUE(waiter.done()) << "the release wakes the waiter at once";
  EXPECT_EQ(waiter.result().status, AcquireStatus::acquired);
  EXPECT_EQ(lock.lease(kSecond)->token, "t2");
}

TEST_F(OwnedLockTest, AWaiterGivesUpAtItsOwnBudget) {
  ASSERT_EQ(run_sync(lock.acquire(kFirst, Micros::zero())).status, AcquireStatus::acquired);
  Task<AcquireResult> waiter = lock.acquire(kSecond, Micros(5000));
  waiter.start();
  clock.advance_to(4999);
  EXPECT_FALSE(waiter.done());
  clock.advance_to(5000);
  ASSERT_TRUE(waiter.done());
  EXPECT_EQ(waiter.result().status, AcquireStatus::busy);
  EXPECT_EQ(lock.holds(kSecond), 0u);
}

TEST_F(OwnedLockTest, ReleaseByAnOwnerThatHoldsNothingReleasesNothing) {
  ASSERT_EQ(run_sync(lock.acquire(kFirst, Micros::zero())).status, AcquireStatus::acquired);
  EXPECT_EQ(run_sync(lock.release(kSecond)), ReleaseStatus::not_owned);
  EXPECT_EQ(algorithm.releases, 0);
  EXPECT_FALSE(lock.lost(kFirst));
  EXPECT_EQ(run_sync(lock.renew(kSecond)), RenewStatus::lost);
}

TEST_F(OwnedLockTest, ANonReentrantLockRefusesASecondHoldByItsOwner) {
  ASSERT_EQ(run_sync(lock.acquire(kFirst, Micros::zero())).status, AcquireStatus::acquired);
  EXPECT_THROW((void)run_sync(lock.acquire(kFirst, Micros::zero())), InvalidArgument);
  EXPECT_EQ(lock.holds(kFirst), 1u);
}

TEST_F(OwnedLockTest, AReentrantLockCountsHoldsAndReleasesAtTheLast) {
  OwnedLock reentrant{algorithm, clock, "orders:42", {.reentrant = true}};
  ASSERT_EQ(run_sync(reentrant.acquire(kFirst, Micros::zero())).status, AcquireStatus::acquired);
  ASSERT_EQ(run_sync(reentrant.acquire(kFirst, Micros::zero())).status, AcquireStatus::acquired);
  EXPECT_EQ(reentrant.holds(kFirst), 2u);
  EXPECT_EQ(algorithm.acquires, 1);
  EXPECT_EQ(run_sync(reentrant.release(kFirst)), ReleaseStatus::released);
  EXPECT_EQ(algorithm.releases, 0) << "an inner release must not free the outer hold";
  EXPECT_FALSE(reentrant.lost(kFirst));
  EXPECT_EQ(run_sync(reentrant.release(kFirst)), ReleaseStatus::released);
  EXPECT_EQ(algorithm.releases, 1);
  EXPECT_TRUE(reentrant.lost(kFirst));
}

TEST_F(OwnedLockTest, SharedHoldsCoexistAndExcludeAnExclusiveOne) {
  ASSERT_EQ(run_sync(lock.acquire(kFirst, Micros::zero(), HoldMode::shared)).status, AcquireStatus::acquired);
  ASSERT_EQ(run_sync(lock.acquire(kSecond, Micros::zero(), HoldMode::shared)).status, AcquireStatus::acquired);
  EXPECT_TRUE(lock.lease(kSecond)->shared);
  EXPECT_EQ(run_sync(lock.acquire(3, Micros::zero())).status, AcquireStatus::busy);
  EXPECT_EQ(algorithm.acquires, 2);
  EXPECT_THROW((void)run_sync(lock.acquire(kFirst, Micros::zero())), InvalidArgument) << "no upgrade";
}

TEST_F(OwnedLockTest, AFailedRedisAcquireFreesTheLocalSlot) {
  algorithm.holders["someone-else"] = false;
  EXPECT_EQ(run_sync(lock.acquire(kFirst, Micros::zero())).status, AcquireStatus::busy);
  EXPECT_EQ(lock.holds(kFirst), 0u);
  algorithm.holders.clear();
  EXPECT_EQ(run_sync(lock.acquire(kSecond, Micros::zero())).status, AcquireStatus::acquired);
}

}  // namespace
}  // namespace lockcheck
