// A watchdog over any variant that can renew (RenewalConfig::watchdog): the user's renew.lua of the `script`
// variant really runs, read-write variants keep their shared mode under it, and the history's meta says what
// ran. And the fenced resource's two modes in whole simulated runs.
#include <gtest/gtest.h>

#include <string>

#include "core/simulate.hpp"
#include "count_lines.hpp"
#include "lockcheck/errors.hpp"

namespace lockcheck::sim {
namespace {

constexpr const char* kAcquire = R"(if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
return 0)";
constexpr const char* kRelease = R"(if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0)";
constexpr const char* kRenew = R"(if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
return 0)";

// Holds of 2-3 TTLs: without renewal every hold would outlive its key.
RunConfig long_holds(const std::string& variant) {
  RunConfig config;
  config.scenario = "renewal-wrap-test";
  config.variant = variant;
  config.renewal.watchdog = true;
  config.lock.ttl = Millis(500);
  config.duration_us = 6000000;
  config.workload.hold_min_us = 1000000;
  config.workload.hold_max_us = 1500000;
  config.workload.wait_us = 5000000;
  return config;
}

TEST(WatchdogWrap, RunsTheUsersRenewScript) {
  RunConfig config = long_holds("script");
  config.scripts = UserScripts{kAcquire, kRelease, kRenew};
  const RunResult run = simulate(config, 1);
  EXPECT_EQ(count_lines(run, R"("variant":"script","watchdog":true,"ttl_ms":500)"), 1u) << "the meta says what ran";
  EXPECT_GT(count_lines(run, R"("type":"ok","process":0,"f":"renew")"), 3u);
  EXPECT_EQ(count_lines(run, R"("type":"fail","process")"), 0u) << "no renewal (nor acquire) fails without faults";
  EXPECT_EQ(count_lines(run, R"("result":"unknown")"), 0u);
  EXPECT_GT(count_lines(run, R"("event":"expire_set")"), 10u) << "renew.lua's PEXPIREs reached the key";
  EXPECT_EQ(count_lines(run, R"("stale":true)"), 0u) << "renewal kept every hold inside its lock";
  EXPECT_EQ(run.history.jsonl(), simulate(config, 1).history.jsonl());
}

TEST(WatchdogWrap, WithoutTheWatchdogTheSameHoldsOutliveTheirKeys) {
  RunConfig config = long_holds("script");
  config.renewal.watchdog = false;
  config.scripts = UserScripts{kAcquire, kRelease, kRenew};
  const RunResult run = simulate(config, 1);
  EXPECT_EQ(count_lines(run, R"("f":"renew")"), 0u) << "nothing renews: renew.lua never runs";
  EXPECT_EQ(count_lines(run, R"("watchdog")"), 0u) << "the meta line keeps its old shape";
  EXPECT_GT(count_lines(run, R"("result":"not_owned")"), 0u);
}

TEST(WatchdogWrap, ReadWriteVariantsKeepTheirSharedMode) {
  RunConfig config = long_holds("rw-owned");
  config.workload.readers_ppm = 500000;
  const RunResult run = simulate(config, 2);
  EXPECT_GT(count_lines(run, R"("type":"ok","process":1,"f":"acquire","key":"lock","local")"), 0u);
  EXPECT_GT(count_lines(run, R"("mode":"read")"), 0u) << "shared acquires go through the watchdog";
  EXPECT_GT(count_lines(run, R"("result":"renewed")"), 3u);
  EXPECT_EQ(count_lines(run, R"("result":"lost")"), 0u);
}

TEST(WatchdogWrap, AVariantThatCannotRenewFailsTheRun) {
  RunConfig config = long_holds("script");
  config.scripts = UserScripts{kAcquire, kRelease, ""};
  EXPECT_THROW(simulate(config, 1), InvalidArgument);
}

// Pauses past the TTL of the fenced lock, overlapping often (the nemesis pauses about every 0.6 s).
RunConfig fenced_under_pauses(Fencing fencing) {
  RunConfig config;
  config.scenario = "fencing-modes-test";
  config.variant = "fenced";
  config.lock.ttl = Millis(1000);
  config.duration_us = 10000000;
  config.workload.fencing = fencing;
  config.workload.hold_min_us = 200000;
  config.workload.hold_max_us = 400000;
  config.nemesis.pause_every_us = 600000;
  config.nemesis.pause_min_us = 1000000;
  config.nemesis.pause_max_us = 2500000;
  return config;
}

TEST(FencingModes, ReadsAndWritesFencingLosesNoUpdateWhereWritesOnlyDoes) {
  std::size_t writes_only_lost = 0, reads_rejected = 0, stale_rejected = 0;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    writes_only_lost += count_lines(simulate(fenced_under_pauses(Fencing::writes), seed), R"("accepted":true,"stale":true)");
    const RunResult run = simulate(fenced_under_pauses(Fencing::reads_and_writes), seed);
    EXPECT_EQ(count_lines(run, R"("accepted":true,"stale":true)"), 0u) << "seed " << seed;
    EXPECT_EQ(count_lines(run, R"("fencing":true,"fencing_mode":"reads-and-writes")"), 1u);
    reads_rejected += count_lines(run, R"("accepted":false})");  // a read line ends with "accepted"
    stale_rejected += count_lines(run, R"("accepted":false,"stale":true)");
  }
  EXPECT_GT(writes_only_lost, 0u) << "a stale write between a newer holder's read and write gets through";
  EXPECT_GT(stale_rejected + reads_rejected, 0u) << "those are rejected when reads register their token";
}

}  // namespace
}  // namespace lockcheck::sim
