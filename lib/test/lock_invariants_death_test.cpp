// The lock paths' running invariants (LOCKCHECK_ASSERT, never compiled out) fire when a caller or an inner
// lock breaks them: one death per kind of invariant, each reached through the type's own API. The lock under
// test talks to a port that fails every call: no invariant here depends on what a server answers.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "lockcheck/variants/redisson_like_lock.hpp"
#include "lockcheck/variants/reentrant_hash_lock.hpp"
#include "lockcheck/variants/token_lock.hpp"
#include "lockcheck/variants/watchdog_lock.hpp"
#include "step_clock.hpp"

namespace lockcheck {
namespace {

using testing::InlineSpawner;
using testing::StepClock;

// What LOCKCHECK_ASSERT prints, "<file>:<line>: lockcheck invariant broken: <expression>", as a regular
// expression: the invariant in `file` whose expression starts with `expression` (its '.' match any character).
std::string broken(const char* file, const char* expression) {
  return std::string(file) + ":[0-9]+: lockcheck invariant broken: " + expression;
}

// One node that never answers: a command sent to it may have run (CallStatus::unknown).
class SilentPort final : public Port {
 public:
  std::size_t node_count() const override { return 1; }
  Task<CallResult> call(std::size_t, Command) override {
    co_return CallResult::failed(CallStatus::unknown, "silent test port");
  }
};

class CountingEntropy final : public Entropy {
 public:
  std::uint64_t next_u64() override { return ++drawn_; }

 private:
  std::uint64_t drawn_ = 0;
};

// An inner lock that breaks the LockAlgorithm contract as told: its grant may carry no token, its release may
// leave the lease counted held, its failed renew may move the validity forward anyway.
struct Misbehaviour {
  bool grants_without_token = false;
  bool release_keeps_lease = false;
  bool failed_renew_extends = false;
};

class MisbehavingLock final : public LockAlgorithm {
 public:
  MisbehavingLock(Clock& clock, Misbehaviour how) : clock_(clock), how_(how) {}
  Task<AcquireResult> acquire(std::string key, Micros) override {
    AcquireResult result;
    result.status = AcquireStatus::acquired;
    const MonoTime now = clock_.monotonic_now();
    result.lease = Lease{key, how_.grants_without_token ? "" : "t1", now, now + Micros(30'000'000), 0, false, &clock_};
    co_return result;
  }
  Task<ReleaseStatus> release(Lease& lease) override {
    if (!how_.release_keeps_lease) lease.known_lost = true;
    co_return ReleaseStatus::released;
  }
  Task<RenewStatus> renew(Lease& lease) override {
    if (how_.failed_renew_extends) lease.valid_until += Micros(1'000'000);
    co_return RenewStatus::unknown;
  }

 private:
  Clock& clock_;
  Misbehaviour how_;
};

LockOptions test_options() {
  LockOptions options;
  options.ttl = Millis(3000);
  return options;
}

// A watchdog over a MisbehavingLock whose renewal loop never gets to run (max_hold ends it at its first
// wake-up), and what its acquire of "k" granted.
struct Watched {
  explicit Watched(Misbehaviour how) {
    WatchdogOptions options;
    options.max_hold = Millis(1);
    watchdog = std::make_unique<WatchdogLock>(std::make_unique<MisbehavingLock>(clock, how), clock, spawner,
                                              Millis(3000), options);
  }
  Lease acquired() {
    AcquireResult result = run_sync(watchdog->acquire("k", Micros(0)));
    EXPECT_EQ(result.status, AcquireStatus::acquired);
    return result.lease.value_or(Lease{});
  }
  StepClock clock;
  InlineSpawner spawner;
  std::unique_ptr<WatchdogLock> watchdog;
};

// The same checks pass when the inner lock keeps the contract: the deaths below come from the breach alone.
TEST(LockInvariants, AWatchdogOverALockThatKeepsTheContractRunsOn) {
  Watched watched({});
  Lease lease = watched.acquired();
  EXPECT_EQ(run_sync(watched.watchdog->renew(lease)), RenewStatus::unknown);
  EXPECT_EQ(run_sync(watched.watchdog->release(lease)), ReleaseStatus::released);
  EXPECT_TRUE(lease.lost());
}

// Precondition on an argument: a request's record needs the request's id.
TEST(LockInvariantsDeathTest, ARequestRecordNeedsARequestId) {
  EXPECT_EQ(ReentrantHashLock::request_key("k", "r"), "k:req:{k}:r");
  EXPECT_DEATH(ReentrantHashLock::request_key("k", ""), broken("same_slot_key.cpp", "!id.empty"));
}

// Precondition on a lease: only a granted lease (one with its token) is released or renewed.
TEST(LockInvariantsDeathTest, OnlyAGrantedLeaseIsReleasedOrRenewed) {
  SilentPort port;
  StepClock clock;
  CountingEntropy entropy;
  TokenLock lock(port, clock, entropy, test_options());
  Lease never_granted;
  never_granted.key = "k";
  never_granted.clock = &clock;
  EXPECT_DEATH(run_sync(lock.release(never_granted)), broken("single_key_lock.cpp", "!lease.token.empty"));
  EXPECT_DEATH(run_sync(lock.renew(never_granted)), broken("single_key_lock.cpp", "!lease.token.empty"));
}

// A variant's contract with the shared loop: its make_token() draws a token (an empty one would match a key
// whose value is "").
class EmptyTokenLock final : public detail::SingleKeyLock {
 public:
  EmptyTokenLock(Port& port, Clock& clock, Entropy& entropy) : SingleKeyLock(port, clock, entropy, test_options(), 0) {}

 protected:
  std::string make_token() override { return ""; }
};

TEST(LockInvariantsDeathTest, EveryAcquireDrawsAToken) {
  SilentPort port;
  StepClock clock;
  CountingEntropy entropy;
  EmptyTokenLock lock(port, clock, entropy);
  EXPECT_DEATH(run_sync(lock.acquire("k", Micros(0))), broken("single_key_lock.cpp", "!run.token.empty"));
}

// State: a watchdog watches (and reports) only an acquired lease, which has its token.
TEST(LockInvariantsDeathTest, AWatchdogWatchesOnlyAnAcquiredLease) {
  Watched watched({.grants_without_token = true});
  EXPECT_DEATH(watched.acquired(), broken("watchdog_lock.cpp", "!lease.token.empty"));
}

// Postcondition: a renew that did not succeed never extends the lease's validity.
TEST(LockInvariantsDeathTest, AFailedRenewNeverExtendsTheValidity) {
  Watched watched({.failed_renew_extends = true});
  Lease lease = watched.acquired();
  EXPECT_DEATH(run_sync(watched.watchdog->renew(lease)), broken("watchdog_lock.cpp", "status == RenewStatus::renewed"));
}

// Postcondition: a released lease is never counted held.
TEST(LockInvariantsDeathTest, AReleasedLeaseIsNeverCountedHeld) {
  Watched watched({.release_keeps_lease = true});
  Lease lease = watched.acquired();
  EXPECT_DEATH(run_sync(watched.watchdog->release(lease)), broken("watchdog_lock.cpp", "lease.lost"));
}

// Precondition on a budget: a waiter between attempts never waits past what is left of its acquire's budget.
class ExposedPubSubLock final : public detail::PubSubReentrantHashLock {
 public:
  using PubSubReentrantHashLock::PubSubReentrantHashLock;
  using PubSubReentrantHashLock::wait_to_retry;
};

TEST(LockInvariantsDeathTest, AWaitBetweenAttemptsStaysWithinTheBudget) {
  SilentPort port;
  StepClock clock;
  CountingEntropy entropy;
  ExposedPubSubLock lock(port, clock, entropy, test_options());
  run_sync(lock.wait_to_retry("k", Micros(1000), Micros(5000)));  // no pub/sub on this port: it sleeps the pause
  EXPECT_EQ(clock.now_us, 1000);
  EXPECT_DEATH(run_sync(lock.wait_to_retry("k", Micros(5000), Micros(1000))),
               broken("redisson_like_lock.cpp", "left > Micros::zero"));
}

}  // namespace
}  // namespace lockcheck
