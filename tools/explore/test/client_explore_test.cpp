// explore --client's parts that need no Redis: a plan written as a judge scenario reads back as the same run with
// its [client]; the kinds the real backend refuses are left out; the search takes its runs and finds from the
// hooks (ExploreOptions::run, ::judge_find), an unconfirmed violation being no find; the reference lock is the
// deployment's kind; a slow link of one client is drawn, written into the run's file, and can be dropped.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>

#include "client_explore.hpp"
#include "client_link_delay.hpp"
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


TEST(ExploreClient, ReferenceIsTheLockOfTheDeploymentsKind) {
  // One master with a replica (--client alone): lockcheck's Mutex.
  const ClientReference single = client_reference_for(client_base(false));
  EXPECT_EQ(single.program, "lockcheck_judge_mutex");
  EXPECT_EQ(single.lock, "Mutex");
  EXPECT_FALSE(single.quorum);
  // Three independent masters (a quorum client's deployment): its RedlockMutex.
  sim::RunConfig quorum = client_base(false);
  quorum.nodes = std::vector<sim::NodeConfig>(3);
  const ClientReference redlock = client_reference_for(quorum);
  EXPECT_EQ(redlock.program, "lockcheck_judge_redlock");
  EXPECT_EQ(redlock.lock, "RedlockMutex");
  EXPECT_TRUE(redlock.quorum);
  // A master and two replicas are one master: still the Mutex.
  sim::RunConfig replicated = client_base(false);
  replicated.nodes = std::vector<sim::NodeConfig>(3);
  replicated.nodes[1].replica_of = replicated.nodes[2].replica_of = 0;
  EXPECT_EQ(client_reference_for(replicated).program, "lockcheck_judge_mutex");
  // A [cluster], whatever its masters, is one lock on one slot's master: the Mutex as a cluster client.
  sim::RunConfig cluster = quorum;
  cluster.cluster.shards = 3;
  EXPECT_EQ(client_reference_for(cluster).program, "lockcheck_judge_mutex");
  EXPECT_FALSE(client_reference_for(cluster).quorum);
  // A [sentinel]: the Mutex as a Sentinel client.
  sim::RunConfig sentinel = client_base(false);
  sentinel.sentinel.sentinels = 3;
  EXPECT_EQ(client_reference_for(sentinel).program, "lockcheck_judge_mutex");
}

TEST(ExploreClient, AFindSeenOnceInItsFirstRerunsIsRerunAsOftenAgain) {
  ClientSearchSettings settings;  // R = 5, at least 2 reproductions
  EXPECT_EQ(confirmation_after(2, 5, settings), Confirmation::confirmed);
  EXPECT_EQ(confirmation_after(5, 5, settings), Confirmation::confirmed);
  EXPECT_EQ(confirmation_after(0, 5, settings), Confirmation::not_a_find) << "never seen again: a fluke";
  // Once in five: a race that shows in a quarter of the runs does that about as often as twice in five.
  EXPECT_EQ(confirmation_after(1, 5, settings), Confirmation::rerun_more);
  EXPECT_EQ(confirmation_after(1, 4, settings), Confirmation::rerun_more) << "a run the judge could not make";
  EXPECT_EQ(confirmation_after(2, 10, settings), Confirmation::confirmed);
  EXPECT_EQ(confirmation_after(1, 10, settings), Confirmation::not_a_find) << "R more at most, once";
  settings.min_reproductions = 1;
  EXPECT_EQ(confirmation_after(0, 5, settings), Confirmation::not_a_find);
  EXPECT_EQ(confirmation_after(1, 5, settings), Confirmation::confirmed);
}

// rl369's bench printed an own bug "against 0 of 5 for the client" (its written file reproduced none of 5,
// the schedule as found 2 of 10): the reruns as found are the evidence, the file's runs only beside them.
TEST(ExploreClient, AnOwnBugCitesTheRerunsAsFoundWhenItsFileReproducedNone) {
  EXPECT_EQ(client_evidence(2, 10, 0, 5), "2 of 10 reruns as found (the written file's 5 runs: none)");
  EXPECT_EQ(client_evidence(5, 5, 4, 5), "5 of 5 reruns as found, 4 of 5 runs of the written file");
}

TEST(ExploreClient, ALinkDelayOfOneClientIsDrawnAroundTheTtl) {
  sim::RunConfig base = client_base(false);
  base.nodes = std::vector<sim::NodeConfig>(3);
  const std::int64_t ttl_us = base.lock.ttl.count() * 1000;
  sim::Prng prng(7);
  int delayed = 0;
  for (int draw = 0; draw < 300; ++draw) {
    sim::RunConfig config = base;
    config.clients = std::vector<sim::ClientConfig>(static_cast<std::size_t>(2 + draw % 4));
    draw_client_link_delay(base, config, prng);
    const std::vector<int> processes = delayed_processes(base, config);
    if (processes.empty()) {
      EXPECT_TRUE(config.link_overrides.empty());
      EXPECT_EQ(config.command_timeout_us, base.command_timeout_us);
      EXPECT_EQ(config.duration_us, base.duration_us);
      continue;
    }
    ++delayed;
    ASSERT_EQ(processes.size(), 1u) << "one client's links";
    EXPECT_LT(processes[0], static_cast<int>(config.clients.size()));
    ASSERT_EQ(config.link_overrides.size(), base.nodes.size()) << "every link of that client";
    for (const sim::LinkOverride& link : config.link_overrides) {
      EXPECT_EQ(link.process, processes[0]);
      EXPECT_EQ(link.link.delay_min_us, link.link.delay_max_us);
      EXPECT_GE(link.link.delay_max_us, ttl_us / 2 - 1000) << "half a TTL each way at least";
      EXPECT_LE(link.link.delay_max_us, ttl_us * 3 / 2) << "and a TTL and a half at most";
      EXPECT_GE(config.command_timeout_us, 4 * link.link.delay_max_us) << "a slow reply, not a timeout";
    }
    EXPECT_GE(config.duration_us, base.duration_us + 8 * config.link_overrides[0].link.delay_max_us) << "time to connect and act";
    EXPECT_EQ(describe_link_delays(base, config).size(), 1u);
    sim::RunConfig dropped = config;
    drop_link_delays(base, dropped);
    EXPECT_TRUE(delayed_processes(base, dropped).empty());
    EXPECT_EQ(dropped.command_timeout_us, base.command_timeout_us);
    EXPECT_EQ(dropped.duration_us, base.duration_us);
  }
  EXPECT_GT(delayed, 60) << "about one draw in three";
  EXPECT_LT(delayed, 140);
}

TEST(ExploreClient, HalfTheSlowLinkRunsKeepOneFastContender) {
  // A slow client wins its SET only on a free key; with four fast clients taking turns it seldom is.
  const sim::RunConfig base = client_base(false);
  sim::Prng prng(5);
  int slow = 0, two = 0;
  for (int draw = 0; draw < 600; ++draw) {
    sim::RunConfig config = base;
    config.clients = std::vector<sim::ClientConfig>(5);
    config.faults = {sim::FaultSpec{.at_us = 1000, .kind = sim::FaultKind::pause, .process = 4, .duration_us = 1000}};
    if (!draw_client_link_delay(base, config, prng)) {
      EXPECT_EQ(config.clients.size(), 5u) << "no slow link, the clients as drawn";
      continue;
    }
    ++slow;
    if (config.clients.size() == 5) continue;
    ++two;
    ASSERT_EQ(config.clients.size(), 2u);
    EXPECT_LT(delayed_processes(base, config).at(0), 2);
    EXPECT_EQ(config.faults.at(0).process, 0) << "the fault on process 4 moves to one of the two";
  }
  EXPECT_GT(two, slow / 4);
  EXPECT_LT(two, slow * 3 / 4);
}

TEST(ExploreClient, RedrawingALinkDelayNeverLengthensARunPastOneDrawsExtra) {
  // A kept run is mutated again and again, and each mutation may redraw its link delay: the run is the base's
  // length plus eight of the delay it has now, never the extras of every earlier draw piled up (runs of 17 s
  // where 8 s do were what rl369's search spent its real time on).
  const sim::RunConfig base = client_base(false);
  const std::int64_t ttl_us = base.lock.ttl.count() * 1000;
  sim::RunConfig config = base;
  config.clients = std::vector<sim::ClientConfig>(3);
  sim::Prng prng(11);
  for (int draw = 0; draw < 200; ++draw) {
    config.faults.push_back(sim::FaultSpec{.at_us = config.duration_us - 1000, .kind = sim::FaultKind::pause, .process = 0, .duration_us = 1000});
    const bool drawn = draw_client_link_delay(base, config, prng);
    const std::int64_t one_way_us = drawn ? config.link_overrides.at(0).link.delay_max_us : 0;
    ASSERT_LE(one_way_us, ttl_us * 3 / 2);
    ASSERT_EQ(config.duration_us, base.duration_us + 8 * one_way_us) << "draw " << draw;
    for (const sim::FaultSpec& fault : config.faults) ASSERT_LE(fault.at_us, config.duration_us) << "no fault past the run's end";
  }
}

TEST(ExploreClient, ADrawnLinkDelayIsInTheRunsFileAndTheBasesOwnLinksStay) {
  sim::RunConfig base = client_base(false);
  base.link_overrides.push_back(sim::LinkOverride{.process = 1, .node = 0, .link = {.delay_min_us = 5000, .delay_max_us = 5000}});
  RunPlan plan;
  plan.config = base;
  plan.seed = 3;
  sim::Prng prng(1);
  for (int draw = 0; draw < 100 && delayed_processes(base, plan.config).empty(); ++draw) {
    plan.config = base;
    draw_client_link_delay(base, plan.config, prng);
  }
  ASSERT_FALSE(delayed_processes(base, plan.config).empty());
  const sim::Scenario read = sim::parse_scenario(client_scenario_text(plan, ClientSpec{{"node", "x.js"}, {}}, "run", {}, "", ""), "run.toml");
  EXPECT_TRUE(same_links(read.config, plan.config)) << "the judge runs the link delay the search drew";
  EXPECT_EQ(read.config.command_timeout_us, plan.config.command_timeout_us);
  EXPECT_EQ(delayed_processes(base, read.config), delayed_processes(base, plan.config));
  // The base's own link (a scenario's [[network.links]]) is no drawn delay, and dropping the drawn one keeps it.
  EXPECT_TRUE(delayed_processes(base, base).empty());
  drop_link_delays(base, plan.config);
  EXPECT_TRUE(same_links(plan.config, base));
}

TEST(ExploreClient, TheSearchDrawsLinksThroughItsHook) {
  ExploreOptions options;
  options.budget_runs = 400;
  options.batch = 4;
  std::atomic<int> with_delay{0};
  std::atomic<int> fault_past_end{0};
  std::atomic<int> slow_link_alone{0}, no_fault_nor_delay{0};
  options.run = [&](const RunPlan& plan) {
    if (!plan.config.link_overrides.empty()) ++with_delay;
    if (plan.config.faults.empty()) ++(plan.config.link_overrides.empty() ? no_fault_nor_delay : slow_link_alone);
    for (const sim::FaultSpec& fault : plan.config.faults) fault_past_end += fault.at_us > plan.config.duration_us ? 1 : 0;
    // Every run reaches a new mark now and then, so that runs are kept and mutated too.
    RunOutcome outcome;
    outcome.exercise.marks[plan.seed % properties::kMarkCount] = 1;
    return outcome;
  };
  const sim::RunConfig base = client_base(false);
  options.draw_links = [base](sim::RunConfig& config, sim::Prng& prng) { return draw_client_link_delay(base, config, prng); };
  Explorer explorer(base, false, options);
  for (int step = 0; step < 400 && explorer.step(); ++step) {
  }
  // The smallest schedule with a slow client is the slow client alone (#369 needs nothing else); a run without
  // one always has a fault.
  EXPECT_GT(slow_link_alone.load(), 10) << "about one fresh run in twelve: a slow link and no other fault";
  EXPECT_EQ(no_fault_nor_delay.load(), 0);
  EXPECT_GT(with_delay.load(), 0) << "some runs of the search have a client's link delayed";
  EXPECT_LT(with_delay.load(), static_cast<int>(explorer.result().runs));
  EXPECT_GT(explorer.result().corpus, 1u) << "runs were kept, and mutated";
  EXPECT_EQ(fault_past_end.load(), 0) << "a mutation never cuts a lengthened run short of its faults";
}

}  // namespace
}  // namespace lockcheck::explore
