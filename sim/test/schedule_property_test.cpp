// RapidCheck over fault schedules: the simulator runs the token lock under generated schedules of
// pauses, crashes, partitions, loss, slow nodes and backward clock steps.
//  - Server-level exclusion and owner-only release hold (judged, never `unknown`) for every such schedule.
//  - Client-level exclusion does not survive a pause past the TTL, and RapidCheck shrinks any failing
//    schedule down to that single pause.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>

#include "properties/checkers.hpp"
#include "core/simulate.hpp"

namespace lockcheck::sim {
namespace {

constexpr std::int64_t kTtlMs = 500;

RunConfig property_config(std::vector<FaultSpec> faults) {
  RunConfig config;
  config.scenario = "property";
  config.lock.ttl = Millis(kTtlMs);
  config.duration_us = 4000000;
  config.clients = std::vector<ClientConfig>(3);
  config.workload.hold_min_us = 50000;
  config.workload.hold_max_us = 150000;
  config.command_timeout_us = 200000;
  std::stable_sort(faults.begin(), faults.end(), [](const FaultSpec& a, const FaultSpec& b) { return a.at_us < b.at_us; });
  config.faults = std::move(faults);
  return config;
}

properties::Outcome outcome_of(const RunConfig& config, std::uint64_t seed, const std::string& property) {
  const RunResult run = simulate(config, seed);
  for (const auto& verdict : properties::check_all(properties::parse_history(run.history.jsonl()))) {
    if (verdict.property == property) return verdict.outcome;
  }
  return properties::Outcome::unknown;
}

// Faults that a correct single-instance token lock must survive at the server level.
// Fixed size 100: RapidCheck scales inRange by the test size, which would cap pauses far below the TTL.
rc::Gen<FaultSpec> survivable_fault() {
  return rc::gen::resize(100, rc::gen::apply(
      [](int kind, int at_ms, int process, int length_ms) {
        FaultSpec fault;
        fault.at_us = std::int64_t{at_ms} * 1000;
        fault.process = process;
        fault.node = 0;
        switch (kind) {
          case 0: fault.kind = FaultKind::pause, fault.duration_us = std::int64_t{length_ms} * 1000; break;
          case 1: fault.kind = FaultKind::crash; break;
          case 2: fault.kind = FaultKind::restart; break;
          case 3: fault.kind = FaultKind::partition; break;
          case 4: fault.kind = FaultKind::heal; break;
          case 5: fault.kind = FaultKind::loss, fault.request_loss_ppm = 100000, fault.reply_loss_ppm = 100000; break;
          case 6: fault.kind = FaultKind::slow_node, fault.duration_us = std::int64_t{length_ms} * 100; break;
          case 7: fault.kind = FaultKind::node_clock_jump, fault.delta_us = -std::int64_t{length_ms} * 1000; break;
          default: fault.kind = FaultKind::client_clock_jump, fault.delta_us = std::int64_t{length_ms} * 1000; break;
        }
        return fault;
      },
      rc::gen::inRange(0, 9), rc::gen::inRange(0, 3500), rc::gen::inRange(0, 3), rc::gen::inRange(1, 3000)));
}

std::string show(const std::vector<FaultSpec>& faults) {
  std::string text;
  for (const auto& fault : faults) text += std::string(to_string(fault.kind)) + "@" + std::to_string(fault.at_us / 1000) + "ms ";
  return text;
}

TEST(ScheduleProperty, ServerLevelSafetyHoldsForEverySurvivableSchedule) {
  const auto result = rc::detail::checkTestable(
      [] {
        const auto faults = *rc::gen::container<std::vector<FaultSpec>>(survivable_fault());
        const std::uint64_t seed = *rc::gen::inRange<std::uint64_t>(1, 1000);
        RC_TAG(faults.size() > 3);
        const RunConfig config = property_config(faults);
        RC_ASSERT(outcome_of(config, seed, "mutual_exclusion_server") == properties::Outcome::holds);
        RC_ASSERT(outcome_of(config, seed, "owner_only_release") == properties::Outcome::holds);
      },
      rc::detail::TestMetadata{}, rc::detail::TestParams{.seed = 20261122, .maxSuccess = 60, .maxSize = 12});
  rc::detail::FailureResult failure;
  EXPECT_FALSE(result.match(failure)) << failure.description;
}

TEST(ScheduleProperty, ClientLevelExclusionFailsUnderPauseAndShrinksToOnePause) {
  static std::vector<FaultSpec> smallest;
  smallest.clear();
  const auto result = rc::detail::checkTestable(
      [] {
        const auto faults = *rc::gen::container<std::vector<FaultSpec>>(survivable_fault());
        const RunConfig config = property_config(faults);
        const bool violated = outcome_of(config, 7, "mutual_exclusion_client") == properties::Outcome::violated;
        if (violated && (smallest.empty() || faults.size() < smallest.size())) smallest = faults;
        RC_ASSERT(!violated);
      },
      rc::detail::TestMetadata{}, rc::detail::TestParams{.seed = 20261122, .maxSuccess = 300, .maxSize = 16});
  rc::detail::FailureResult failure;
  ASSERT_TRUE(result.match(failure)) << "a pause past the TTL must break client-level exclusion";
  ASSERT_EQ(smallest.size(), 1u) << "shrunk schedule: " << show(smallest);
  EXPECT_EQ(smallest.front().kind, FaultKind::pause);
  // The pause must outlast what was left of the TTL when it hit a holder (holds last at most 150 ms).
  EXPECT_GT(smallest.front().duration_us, (kTtlMs - 150) * 1000) << "a short pause cannot break it";
}

}  // namespace
}  // namespace lockcheck::sim
