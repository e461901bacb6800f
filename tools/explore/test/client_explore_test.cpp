// explore --client's parts that need no Redis: a plan written as a judge scenario reads back as the same run with
// its [client]; the kinds the real backend refuses are left out; the search takes its runs and finds from the
// hooks (ExploreOptions::run, ::judge_find), an unconfirmed violation being no find.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>

#include "client_explore.hpp"
#include "client_run.hpp"
#include "explorer.hpp"
#include "scenario/scenario.hpp"

namespace lockcheck::explore {
namespace {

TEST(ExploreClient, PlanWrittenAsJudgeScenarioReadsBack) {
  RunPlan plan;
  plan.config = client_base(true);
  plan.seed = 77;
  plan.config.faults = {sim::FaultSpec{.at_us = 0, .kind = sim::FaultKind::partition, .process = 1, .node = 0},
                        sim::FaultSpec{.at_us = 900'000, .kind = sim::FaultKind::pause, .process = 0, .duration_us = 700'000}};
  const ClientSpec client{{"node", "adapters/x \"quoted\".js"}, {"mutex:lock"}};
  const std::string text = client_scenario_text(plan, client, "x-mutual_exclusion_client", {77, 78, 79}, "mutual_exclusion_client", "why");
  const sim::Scenario read = sim::parse_scenario(text, "written.toml");
  EXPECT_EQ(read.backend, "redis");
  EXPECT_EQ(read.config.external.command, client.command);
  EXPECT_EQ(read.config.external.keys, client.keys);
  EXPECT_EQ(read.seeds, (std::vector<std::uint64_t>{77, 78, 79}));
  ASSERT_EQ(read.expectations.size(), 1u);
  EXPECT_EQ(read.expectations[0].property, "mutual_exclusion_client");
  EXPECT_EQ(read.expectations[0].expected, sim::Expectation::Expected::violated);
  ASSERT_EQ(read.config.faults.size(), 2u);
  EXPECT_EQ(read.config.faults[0].at_us, 1000) << "a fault at 0 comes after the clients' readiness";
  EXPECT_EQ(read.config.faults[1].at_us, 900'000);
  EXPECT_EQ(read.config.lock.ttl, plan.config.lock.ttl);
  EXPECT_GT(read.config.workload.hold_max_us, read.config.lock.ttl.count() * 1000) << "a client that renews holds past the TTL";
  // Without an expectation the file still loads (a search run's file says why it gates nothing).
  EXPECT_NO_THROW(sim::parse_scenario(client_scenario_text(plan, client, "run", {}, "", ""), "run.toml"));
}

TEST(ExploreClient, KindsTheBackendRefusesAreLeftOut) {
  const sim::RunConfig base = client_base(false);
  const auto refuse_replica_partition = [](sim::FaultKind kind) { return kind != sim::FaultKind::replica_partition; };
  const std::vector<sim::FaultKind> left_out = kinds_not_real(base, +refuse_replica_partition);
  EXPECT_EQ(left_out, std::vector<sim::FaultKind>{sim::FaultKind::replica_partition});
  EXPECT_TRUE(kinds_not_real(base, +[](sim::FaultKind) { return true; }).empty());
}

TEST(ExploreClient, RunsAndFindsGoToTheHooks) {
  ExploreOptions options;
  options.budget_runs = 12;
  options.batch = 2;
  options.jobs = 2;
  std::atomic<int> runs{0};
  options.run = [&](const RunPlan&) {
    RunOutcome outcome;
    properties::Verdict verdict;
    verdict.property = "owner_only_release";
    verdict.outcome = ++runs >= 3 ? properties::Outcome::violated : properties::Outcome::holds;
    outcome.verdicts.push_back(verdict);
    return outcome;
  };
  int judged = 0;
  options.judge_find = [&](Find& find) {
    EXPECT_EQ(find.property, "owner_only_release");
    return ++judged == 1 ? FindDecision::not_confirmed : FindDecision::own_bug;
  };
  Explorer explorer(client_base(false), false, options);
  for (int step = 0; step < 12 && explorer.step(); ++step) {
  }
  const ExploreResult& result = explorer.result();
  EXPECT_EQ(result.not_confirmed, 1);
  ASSERT_EQ(result.finds.size(), 1u) << "the second violation, confirmed, ends the search";
  EXPECT_TRUE(result.limits.empty());
  EXPECT_EQ(judged, 2);
  EXPECT_LE(result.runs, 12u);
}

}  // namespace
}  // namespace lockcheck::explore
