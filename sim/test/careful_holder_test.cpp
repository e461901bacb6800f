// The careful holder (WorkloadConfig::check_lease_before_write, write_latency_*_us): checking the lease
// before writing stops the stale writes of a pause during the hold, but not those of a pause between the
// check and the write's arrival; and such runs replay byte for byte.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "core/simulate.hpp"
#include "count_lines.hpp"

namespace lockcheck::sim {
namespace {

// Pauses past the TTL (F4) on a token lock, with a careful holder.
RunConfig paused_careful_holder(std::int64_t write_latency_us) {
  RunConfig config;
  config.scenario = "careful-holder-test";
  config.lock.ttl = Millis(1000);
  config.duration_us = 8000000;
  config.workload.hold_min_us = 200000;
  config.workload.hold_max_us = 400000;
  config.workload.check_lease_before_write = true;
  config.workload.write_latency_min_us = write_latency_us;
  config.workload.write_latency_max_us = write_latency_us;
  config.nemesis.pause_every_us = 600000;
  config.nemesis.pause_min_us = 1500000;
  config.nemesis.pause_max_us = 2500000;
  return config;
}

TEST(CarefulHolder, SameSeedSameHistoryByteForByte) {
  const RunConfig config = paused_careful_holder(150000);
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const RunResult first = simulate(config, seed);
    const RunResult second = simulate(config, seed);
    ASSERT_EQ(first.history.jsonl(), second.history.jsonl()) << "seed " << seed;
  }
}

TEST(CarefulHolder, CheckingRightBeforeAnInstantWriteLosesNoUpdate) {
  // No await between the check and the write: a pause can only land before the check, which then sees the
  // lease spent and skips the write.
  std::size_t skipped = 0;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const RunResult run = simulate(paused_careful_holder(0), seed);
    EXPECT_EQ(count_lines(run, R"("stale":true)"), 0u) << "seed " << seed;
    skipped += count_lines(run, R"("skipped_write":"lease expired by the holder's clock")");
  }
  EXPECT_GT(skipped, 0u) << "the pauses must have hit some holds";
}

TEST(CarefulHolder, APauseBetweenTheCheckAndTheWriteStillLosesAnUpdate) {
  // The write takes as long as the hold, so about half the pauses that hit a holder land after its check.
  std::size_t stale = 0;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    stale += count_lines(simulate(paused_careful_holder(300000), seed), R"("accepted":true,"stale":true)");
  }
  EXPECT_GT(stale, 0u);
}

TEST(CarefulHolder, TooLittleLeaseLeftForTheWriteSkipsIt) {
  // A write that may take longer than the TTL is never started.
  RunConfig config = paused_careful_holder(0);
  config.nemesis = NemesisConfig{};
  config.workload.write_latency_max_us = 2000000;
  const RunResult run = simulate(config, 1);
  EXPECT_EQ(count_lines(run, R"("f":"write")"), 0u);
  EXPECT_GT(count_lines(run, R"(left by the holder's clock, the write may take 2000000 us")"), 0u);
}

}  // namespace
}  // namespace lockcheck::sim
