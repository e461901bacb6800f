// explore: deterministic in its seed whatever --jobs, finds a broken variant's bug within a small budget,
// writes finds that `lockcheck run` reproduces, and never writes a schedule that reads back differently.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/simulate.hpp"
#include "lockcheck/variants/registry.hpp"
#include "explorer.hpp"
#include "workload_space.hpp"
#include "find_file.hpp"
#include "known_limit.hpp"
#include "reference.hpp"
#include "run_length.hpp"
#include "scenario/scenario.hpp"
#include "scenario/write_scenario.hpp"

namespace lockcheck::explore {
namespace {

ExploreResult explore_runs(const std::string& variant, std::uint64_t seed, std::uint64_t runs, unsigned jobs,
                           Strategy strategy = Strategy::guided, bool all_properties = false,
                           std::vector<sim::FaultKind> without = {}, bool can_renew = false) {
  ExploreOptions options;
  options.without = std::move(without);
  options.seed = seed;
  options.budget_runs = runs;
  options.jobs = jobs;
  options.strategy = strategy;
  options.all_properties = all_properties;
  options.shrink_simulations = 24;
  Explorer explorer(explore_base_for_variant(variant), can_renew, options);
  for (int step = 0; step < 100000 && explorer.step(); ++step) {
  }
  return explorer.result();
}

TEST(Explore, TheSameSeedGivesTheSameSearchWithAnyNumberOfJobs) {
  const ExploreResult one = explore_runs("token", 7, 24, 1, Strategy::guided, true);
  const ExploreResult two = explore_runs("token", 7, 24, 2, Strategy::guided, true);
  EXPECT_EQ(one.runs, two.runs);
  EXPECT_EQ(one.events, two.events);
  EXPECT_EQ(one.runs_reaching, two.runs_reaching);
  EXPECT_EQ(one.pairs, two.pairs);
  ASSERT_EQ(one.limits.size(), two.limits.size());
  for (std::size_t i = 0; i < one.limits.size(); ++i) EXPECT_EQ(one.limits[i].runs, two.limits[i].runs);
  ASSERT_EQ(one.finds.size(), two.finds.size());
  for (std::size_t i = 0; i < one.finds.size(); ++i) {
    EXPECT_EQ(one.finds[i].property, two.finds[i].property);
    EXPECT_EQ(one.finds[i].minimal.config.faults, two.finds[i].minimal.config.faults);
  }
}

TEST(Explore, FindsTheForeignReleaseOfSetNxExDelUnasked) {
  // set-nx-ex-del releases with a plain DEL: a holder past its TTL deletes the next owner's lock. Nobody
  // names the fault; the search must come to it.
  const ExploreResult result = explore_runs("set-nx-ex-del", 1, 200, 2);
  ASSERT_FALSE(result.finds.empty()) << "no find in " << result.runs << " runs";
  EXPECT_LE(result.finds.front().minimal.config.faults.size(), result.finds.front().plan.config.faults.size());
}

TEST(Explore, AFindIsWrittenAsAScenarioThatReproducesIt) {
  const ExploreResult result = explore_runs("set-nx-ex-del", 1, 200, 2);
  ASSERT_FALSE(result.finds.empty());
  const std::string directory = ::testing::TempDir() + "/explore-find";
  const WrittenFind file = write_find(result.finds.front(), {}, directory);
  EXPECT_TRUE(file.reproduced) << file.problem;
  const sim::Scenario loaded = sim::load_scenario(file.path);
  ASSERT_EQ(loaded.expectations.size(), 1u);
  EXPECT_EQ(loaded.expectations.front().property, result.finds.front().property);
  EXPECT_EQ(loaded.expectations.front().expected, sim::Expectation::Expected::violated);
  std::filesystem::remove_all(directory);
}

TEST(Explore, EveryDrawnPlanReadsBackAsTheSameRun) {
  // The writer states every setting explore varies: a drawn plan, written and parsed, runs byte for byte alike.
  sim::Prng prng(11);
  for (const char* variant : {"token", "redlock", "reentrant-hash", "rw-owned", "token-wait"}) {
    const sim::RunConfig base = explore_base_for_variant(variant);
    for (int i = 0; i < 4; ++i) {
      sim::RunConfig config = base;
      draw_workload(base, false, prng, config);
      for (const sim::FaultKind kind : applicable_kinds(base)) draw_fault(kind, config, prng, config.faults);
      for (sim::FaultSpec& fault : config.faults) {
        if (fault.process >= 0) fault.process %= static_cast<int>(config.clients.size());
      }
      normalize(config.faults);
      sim::Scenario scenario;
      scenario.name = "drawn";
      scenario.config = config;
      scenario.config.scenario = "drawn";
      scenario.seeds = {5};
      const sim::Scenario back = sim::parse_scenario(sim::write_scenario(scenario), "drawn.toml");
      ASSERT_EQ(back.config.faults, scenario.config.faults) << variant;
      EXPECT_EQ(sim::simulate(back.config, 5).history.hash(), sim::simulate(scenario.config, 5).history.hash()) << variant;
    }
  }
}

TEST(Explore, GuidedStartsWithShortRuns) {
  // A run's CPU is in proportion to its simulated events: guided's first batch simulates short runs (Luby
  // eighths of the base, at least two TTLs), all-on's first batch the whole base duration every time.
  // With every property searched, a find does not end the batch early.
  const ExploreResult all_on = explore_runs("token", 3, 8, 1, Strategy::all_on, true);
  const ExploreResult guided = explore_runs("token", 3, 8, 1, Strategy::guided, true);
  ASSERT_EQ(all_on.runs, 8u);
  ASSERT_EQ(guided.runs, 8u);
  EXPECT_LT(guided.events * 3, all_on.events * 2) << "guided " << guided.events << " events, all-on " << all_on.events;
}

TEST(Explore, GuidedShortRunsKeepTheirFaultDensity) {
  // A short run holds few lock operations for a fault to meet: guided's short runs are denser in faults per
  // simulated event than all-on's whole-base runs, not merely as many faults in fewer events.
  const ExploreResult all_on = explore_runs("token", 3, 8, 1, Strategy::all_on, true);
  const ExploreResult guided = explore_runs("token", 3, 8, 1, Strategy::guided, true);
  const double guided_density = static_cast<double>(guided.exercise.faults) / static_cast<double>(guided.events);
  const double all_on_density = static_cast<double>(all_on.exercise.faults) / static_cast<double>(all_on.events);
  EXPECT_GT(guided_density, 3 * all_on_density) << "fault lines per event: guided " << guided_density << ", all-on "
                                                << all_on_density;
}

TEST(Explore, WithoutShrinkingAFindIsTheRunAsFoundAndNothingIsRerun) {
  // The benchmark times the find alone (shrink_simulations = 0): no shrink, no workload shrink, no shorter
  // run, no final judgement may run after it, and the find is the plan as it was found.
  ExploreOptions options;
  options.seed = 1;
  options.budget_runs = 200;
  options.only_property = "owner_only_release";
  options.shrink_simulations = 0;
  Explorer explorer(explore_base_for_variant("set-nx-ex-del"), false, options);
  for (int step = 0; step < 1000 && explorer.step(); ++step) {
  }
  ASSERT_EQ(explorer.result().finds.size(), 1u);
  const Find& find = explorer.result().finds.front();
  EXPECT_EQ(find.shrink_simulations, 0);
  EXPECT_EQ(find.minimal.config.faults, find.plan.config.faults);
  EXPECT_EQ(find.minimal.config.duration_us, find.plan.config.duration_us);
  EXPECT_EQ(find.minimal.config.clients.size(), find.plan.config.clients.size());
  EXPECT_EQ(find.verdict.outcome, properties::Outcome::violated);
}

TEST(Explore, RunLengthsFollowLubyWithinTheBase) {
  const std::uint64_t expected[] = {1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, 1};
  for (std::uint64_t i = 1; i <= 16; ++i) EXPECT_EQ(luby(i), expected[i - 1]) << i;
  sim::RunConfig base = explore_base_for_variant("token");  // 10 s, TTL 1 s
  const std::int64_t shortest_us = shortest_run_us(base, "");
  EXPECT_EQ(shortest_us, 2'000'000);                                      // two TTLs
  EXPECT_EQ(shortest_run_us(base, "bounded_unavailability"), 5'000'000);  // a TTL, the TTL and 2 TTLs + 1 s
  EXPECT_EQ(fresh_duration_us(base, 1, shortest_us), 2'000'000);          // 1/8 of 10 s is below two TTLs
  EXPECT_EQ(fresh_duration_us(base, 7, shortest_us), 5'000'000);          // 4/8
  EXPECT_EQ(fresh_duration_us(base, 15, shortest_us), 10'000'000);        // 8/8
  EXPECT_EQ(fresh_duration_us(base, 31, shortest_us), 10'000'000);        // never past the base
  base.duration_us = 1'500'000;  // a base shorter than two TTLs stays as it is
  EXPECT_EQ(fresh_duration_us(base, 1, shortest_us), 1'500'000);
}

TEST(Explore, AShortRunsFaultsAreOverATtlBeforeItEnds) {
  sim::RunConfig config = explore_base_for_variant("token");
  config.duration_us = 2'000'000;
  const std::int64_t ttl_us = config.lock.ttl.count() * 1000;
  sim::Prng prng(5);
  for (const sim::FaultKind kind : applicable_kinds(config)) {
    for (int i = 0; i < 20; ++i) {
      std::vector<sim::FaultSpec> faults;
      draw_fault_to_play_out(kind, config, ttl_us, prng, faults);
      ASSERT_FALSE(faults.empty());
      std::int64_t over_us = 0;
      for (const sim::FaultSpec& fault : faults) over_us = std::max(over_us, fault.at_us + std::max<std::int64_t>(0, fault.duration_us));
      // Moved no earlier than the run's start: a fault longer than the run may still outlast it.
      EXPECT_TRUE(over_us <= config.duration_us - ttl_us || faults.front().at_us == 0) << kind;
      EXPECT_GE(faults.front().at_us, 0);
    }
  }
}

TEST(Explore, AKeptRunIsAsRareAsItsRarestMark) {
  // Guided mutates the rarer of two kept runs: the one whose rarest mark fewer runs reached.
  MarkCounts runs_reaching{};
  runs_reaching[0] = 40;  // resumed_after_validity: reached often
  runs_reaching[9] = 90;  // pause_during_hold
  runs_reaching[7] = 2;   // reentrant_expiry: reached twice
  MarkCounts common{}, rare{}, none{};
  common[0] = common[9] = 1;
  rare[9] = rare[7] = 3;
  EXPECT_EQ(rarest_mark_runs(common, runs_reaching), 40);
  EXPECT_EQ(rarest_mark_runs(rare, runs_reaching), 2);
  EXPECT_GT(rarest_mark_runs(none, runs_reaching), rarest_mark_runs(common, runs_reaching));
}

TEST(Explore, SwarmRunsEnableASubsetOfKinds) {
  sim::Prng prng(3);
  const std::vector<sim::FaultKind> all = applicable_kinds(explore_base_for_variant("token"));
  int smaller = 0;
  for (int i = 0; i < 50; ++i) {
    const auto subset = swarm_subset(all, prng);
    EXPECT_FALSE(subset.empty());
    smaller += subset.size() < all.size() ? 1 : 0;
  }
  EXPECT_GT(smaller, 40);
}

// A find that rests on a fault breaking the property for every lock of its kind is named so; others are not.
TEST(Explore, AKnownLimitIsNamedByTheFaultItRestsOn) {
  using sim::FaultKind;
  const sim::Fencing unfenced = sim::Fencing::off, writes_only = sim::Fencing::writes,
                     fenced = sim::Fencing::reads_and_writes;
  const sim::FaultSpec failover{.at_us = 1, .kind = FaultKind::failover, .node = 1};
  const sim::FaultSpec ahead{.at_us = 1, .kind = FaultKind::node_clock_jump, .node = 0, .delta_us = 2'000'000};
  const sim::FaultSpec back{.at_us = 1, .kind = FaultKind::node_clock_jump, .node = 0, .delta_us = -2'000'000};
  const sim::FaultSpec pause{.at_us = 1, .kind = FaultKind::pause, .process = 0, .duration_us = 2'000'000};
  const sim::FaultSpec loss{.at_us = 1, .kind = FaultKind::loss, .request_loss_ppm = 100'000};
  EXPECT_EQ(known_limit("mutual_exclusion_server", {loss, failover}, unfenced)->fault, "failover");
  EXPECT_EQ(known_limit("mutual_exclusion_server", {ahead}, unfenced)->fault, "node_clock_jump");
  EXPECT_FALSE(known_limit("mutual_exclusion_server", {back}, unfenced)) << "a step back never breaks exclusion (S7)";
  EXPECT_FALSE(known_limit("mutual_exclusion_server", {pause, loss}, unfenced)) << "the server does not see a pause";
  EXPECT_EQ(known_limit("mutual_exclusion_client", {pause}, unfenced)->fault, "pause");
  EXPECT_FALSE(known_limit("mutual_exclusion_resource", {pause}, fenced)) << "fencing saves the resource from a pause";
  EXPECT_EQ(known_limit("mutual_exclusion_resource", {failover}, fenced)->fault, "failover") << "F25";
  EXPECT_TRUE(known_limit("mutual_exclusion_resource", {ahead}, writes_only))
      << "write-only fencing: a stale write between a newer holder's read and its write";
  EXPECT_FALSE(known_limit("mutual_exclusion_resource", {ahead}, fenced));
  EXPECT_EQ(known_limit("bounded_unavailability", {back}, unfenced)->fault, "node_clock_jump");
  EXPECT_FALSE(known_limit("bounded_unavailability", {ahead}, unfenced));
  EXPECT_FALSE(known_limit("owner_only_release", {failover, pause, ahead}, unfenced)) << "no lock must lose this";
  // A holder past its own validity (the checker's tag), whatever let its lease lapse: nothing to leave out.
  const auto late = known_limit("mutual_exclusion_client", {loss}, unfenced, {properties::kPastOwnValidity});
  ASSERT_TRUE(late);
  EXPECT_EQ(late->cases, "F4, F21");
  EXPECT_TRUE(late->fault.empty());
  EXPECT_FALSE(known_limit("mutual_exclusion_client", {loss}, unfenced)) << "both inside their validity under loss";
  EXPECT_TRUE(known_limit("mutual_exclusion_resource", {loss}, writes_only, {properties::kPastOwnValidity}));
  EXPECT_FALSE(known_limit("mutual_exclusion_resource", {loss}, fenced, {properties::kPastOwnValidity}))
      << "fencing reads and writes refuses a late holder";
  EXPECT_EQ(known_limit("reentrancy", {loss, failover}, unfenced)->cases, "F5") << "the replica lacked a count";
  EXPECT_FALSE(known_limit("reentrancy", {loss, back}, unfenced));
  // A holder's clock running slow past the lock's 1% drift margin: it believes in a lease its key no longer has
  // (the explore gate at 1000 runs, seed 13, called the token lock's overlap under a client clock 23.8% slow its own
  // bug). Within the margin, or running fast, it is the lock's own to keep.
  const sim::FaultSpec slow_client{.at_us = 1, .kind = FaultKind::client_clock_drift, .process = 1, .drift_ppm = -238'262};
  const sim::FaultSpec slightly_slow{.at_us = 1, .kind = FaultKind::client_clock_drift, .process = 1, .drift_ppm = -5'000};
  const sim::FaultSpec fast_client{.at_us = 1, .kind = FaultKind::client_clock_drift, .process = 1, .drift_ppm = 238'262};
  const auto slow = known_limit("mutual_exclusion_client", {slow_client}, unfenced);
  ASSERT_TRUE(slow);
  EXPECT_EQ(slow->cases, "F12, F13");
  EXPECT_EQ(slow->fault, "client_clock_drift");
  EXPECT_FALSE(known_limit("mutual_exclusion_client", {slightly_slow}, unfenced));
  EXPECT_FALSE(known_limit("mutual_exclusion_client", {fast_client}, unfenced));
  EXPECT_FALSE(known_limit("mutual_exclusion_server", {slow_client}, unfenced)) << "the server does not see a client's clock";
}

// Gates that can fail (the explore issue's item 9): a correct variant's finds are all known limits (its
// reference lock breaks too, or for a reference lock itself the theory names the case); anything else is a
// bug in a variant or a checker (two were found so at larger budgets: a reentry that re-created a lost hold, a
// late refusal counted against a dead holder). Its budget is CI's; as a slow yardstick,
// LOCKCHECK_GATE_RUNS=1000 LOCKCHECK_GATE_SEED=7 (tools/explore/README.md); LOCKCHECK_GATE_ONLY=fair searches one
// variant, LOCKCHECK_GATE_OUT=DIR writes each find there as a scenario file to replay.
std::uint64_t from_environment(const char* name, std::uint64_t fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? std::stoull(value) : fallback;
}

TEST(Explore, OnCorrectVariantsNoFindIsTheLocksOwnBug) {
  const std::uint64_t runs = from_environment("LOCKCHECK_GATE_RUNS", 80);
  const std::uint64_t seed = from_environment("LOCKCHECK_GATE_SEED", 1);
  std::int64_t limits_met = 0;
  for (const char* variant : {"token", "watchdog", "reentrant-hash", "reentrant-maxttl", "fenced", "token-wait", "redlock",
                              "redisson-like", "rw-owned", "watch-cas", "semaphore", "latch", "fair"}) {
    if (std::getenv("LOCKCHECK_GATE_ONLY") && std::string(std::getenv("LOCKCHECK_GATE_ONLY")) != variant) continue;
    // Searched as `lockcheck explore --variant` searches it: a lock that can run a watchdog draws it on and off
    // (the gate without it never met redlock's or reentrant-maxttl's renewals, which --variant all called buggy).
    const bool can_renew = watchdog_refusal(variant, false).empty();
    const ExploreResult result = explore_runs(variant, seed, runs, 2, Strategy::guided, true, {}, can_renew);
    for (const ExploreResult::LimitMet& met : result.limits) limits_met += met.runs;
    for (const Find& find : result.finds) {
      std::string schedule;
      for (const sim::FaultSpec& fault : find.minimal.config.faults) schedule += "\n  " + sim::describe(fault);
      if (std::getenv("LOCKCHECK_GATE_OUT")) write_find(find, {}, std::getenv("LOCKCHECK_GATE_OUT"));
      ADD_FAILURE() << variant << " " << find.property << " called its own bug: " << find.verdict.cause << "\n  ("
                    << find.decided_by << ")" << schedule;
    }
  }
  EXPECT_GE(limits_met, 10) << "the known limits themselves must be met, or this judges nothing";
}

// A find is decided on its minimal run too: the gate at 1000 runs, seed 339, met redisson-like's client-level
// overlap in its 91st run, shrunk it to one loss fault, and there the overlap was a late holder's (its nested
// acquire retried lost requests for a second, its lease lapsed, and it wrote anyway): the holder's, not the
// lock's. Decided on the run as found only, it was called the lock's own bug.
TEST(Explore, AFindWhoseMinimalRunIsALateHoldersIsAKnownLimit) {
  const ExploreResult result = explore_runs("redisson-like", 339, 100, 2, Strategy::guided, true);
  for (const Find& find : result.finds) ADD_FAILURE() << find.property << " called its own bug: " << find.decided_by;
  // The search met client-level overlaps at all (each a known limit now): this judged something.
  const bool client_level_met = std::any_of(result.limits.begin(), result.limits.end(), [](const ExploreResult::LimitMet& met) {
    return met.example.property == "mutual_exclusion_client";
  });
  EXPECT_TRUE(client_level_met);
}

// Every broken variant's documented weak spot is found, by no hint but the property, as the lock's own bug:
// the reference of its kind keeps the property under the same schedule. client-reentrant's renewal cap among
// them: drawn holds pass the TTL for a lock that renews by itself.
TEST(Explore, EveryBrokenVariantsBugIsFoundAsItsOwn) {
  const std::uint64_t runs = from_environment("LOCKCHECK_GATE_RUNS", 300);
  for (const auto& [variant, property] : std::vector<std::pair<std::string, std::string>>{
           {"exists-then-set", "mutual_exclusion_server"},
           {"setnx-then-expire", "bounded_unavailability"},
           {"set-nx-ex-del", "owner_only_release"},
           {"get-then-del", "owner_only_release"},
           {"thread-id", "mutual_exclusion_server"},
           {"appid-thread", "reentrancy"},
           {"watchdog-unchecked", "owner_only_release"},
           {"rw-two-keys", "mutual_exclusion_client"},
           {"rw-hash-timestamps", "mutual_exclusion_server"},
           {"client-reentrant", "renewal"},
           // Each documented bug of a synchronizer with more than one promise: the clause it breaks.
           {"redisson-semaphore", "permit_safety/permit_lost"},
           {"redisson-semaphore", "permit_safety/inflated_count"},
           {"redisson-permit-expirable", "permit_safety/too_many_holders"},
           {"redisson-latch", "latch/never_opened"},
           {"redisson-multilock", "bounded_unavailability"},
           {"redisson-fair", "fairness"},
           {"redisson-like-retries", "reentrancy"},
           {"redisson-fenced", "reentrancy"}}) {
    ExploreOptions options;
    options.seed = 1;
    // redisson-like-retries' bug needs a re-sent acquire (a lost reply) that then outlives its owner's release:
    // since the released-holds rule stopped calling a copy on a restarted failed-over master a hold left behind
    // (Checkers.ACopyOnARestartedFailedOverMasterIsNoHoldLeftBehind), this search (seed 1) meets it between runs
    // 300 and 800; `lockcheck explore --variant redisson-like-retries --property reentrancy` at run 232.
    options.budget_runs = variant == "redisson-like-retries" ? runs * 8 / 3 : runs;
    options.jobs = 2;
    options.only_property = property;
    options.shrink_simulations = 24;
    Explorer explorer(explore_base_for_variant(variant), false, options);
    for (int step = 0; step < 100000 && explorer.step(); ++step) {
    }
    const ExploreResult& result = explorer.result();
    ASSERT_FALSE(result.finds.empty()) << variant << ": " << property << " not found as its own bug in " << result.runs
                                       << " runs (" << result.limits.size() << " known limit(s) met)";
    EXPECT_TRUE(result.finds.front().own_bug);
    EXPECT_FALSE(result.finds.front().decided_by.empty());
    EXPECT_EQ(result.finds.front().selector(), property);
  }
}

// A property that makes two promises is two slots: the latch that opened early (a restart that lost its key)
// does not hide the latch that never opens (a lost zero message, Redisson #2304, #5349), which comes later in
// the same search. Before clauses, the second find was never kept: one find per property.
TEST(Explore, EachClauseOfAPropertyIsAFindOfItsOwn) {
  ExploreOptions options;
  options.seed = 1;
  options.budget_runs = 400;
  options.jobs = 2;
  options.all_properties = true;
  options.shrink_simulations = 24;
  Explorer explorer(explore_base_for_variant("redisson-latch"), false, options);
  for (int step = 0; step < 100000 && explorer.step(); ++step) {
  }
  std::vector<std::string> found;
  for (const Find& find : explorer.result().finds) {
    EXPECT_TRUE(find.own_bug) << find.selector() << ": " << find.decided_by;
    found.push_back(find.selector());
  }
  std::sort(found.begin(), found.end());
  EXPECT_EQ(found, (std::vector<std::string>{"latch/never_opened", "latch/opened_early"}));
}

// --without leaves kinds out of the search and out of the starting scenario: with every fault that breaks the
// token lock's server-level exclusion by the theory left out, explore finds nothing against it.
TEST(Explore, WithoutTheKnownLimitsTheTokenLocksServerExclusionHolds) {
  using sim::FaultKind;
  std::vector<sim::FaultSpec> faults{{.at_us = 1, .kind = FaultKind::crash, .process = 0},
                                     {.at_us = 2, .kind = FaultKind::restart, .process = 0},
                                     {.at_us = 3, .kind = FaultKind::failover, .node = 1},
                                     {.at_us = 4, .kind = FaultKind::pause, .process = 1, .duration_us = 5}};
  leave_out({FaultKind::crash, FaultKind::failover}, faults);
  ASSERT_EQ(faults.size(), 1u);
  EXPECT_EQ(faults[0].kind, FaultKind::pause);

  const std::vector<FaultKind> limits{FaultKind::failover, FaultKind::split_brain, FaultKind::node_crash,
                                      FaultKind::node_clock_jump, FaultKind::node_clock_drift};
  const ExploreResult result = explore_runs("token", 3, 200, 2, Strategy::guided, true, limits);
  for (const Find& find : result.finds) {
    EXPECT_NE(find.property, "mutual_exclusion_server") << find.verdict.cause;
    for (const sim::FaultSpec& fault : find.plan.config.faults) {
      EXPECT_EQ(std::count(limits.begin(), limits.end(), fault.kind), 0) << sim::describe(fault);
    }
  }
  EXPECT_GT(result.held.at("mutual_exclusion_server"), 100);
}

// A [cluster] fails a crashed master over by itself after its node timeout: no failover in the schedule, one in
// the history. The token lock (its own reference, decided by the theory) lost a grant so, and explore called it
// the token lock's own bug (cluster-master-crash-ttl-over-node-timeout-breaks, seed 5, run 15: one node_crash).
// It is F5, left out with the node_crash.
TEST(Explore, TheClustersOwnFailoverAfterANodeCrashIsAKnownLimit) {
  const sim::Scenario scenario =
      sim::load_scenario(std::string(LOCKCHECK_SOURCE_DIR) + "/scenarios/cluster-master-crash-ttl-over-node-timeout-breaks.toml");
  const sim::Fencing unfenced = sim::Fencing::off;
  EXPECT_FALSE(known_limit("mutual_exclusion_server", scenario.config.faults, unfenced)) << "the schedule: a crash, a restart";
  const auto limit = known_limit_of_run("mutual_exclusion_server", scenario.config, 1, unfenced);
  ASSERT_TRUE(limit) << "the run: the cluster's failover after the node timeout";
  EXPECT_EQ(limit->cases, "F5");
  EXPECT_EQ(limit->fault, "node_crash") << "what --without leaves out";
  EXPECT_NE(limit->because.find("the cluster's own after a node_crash"), std::string::npos) << limit->because;
  EXPECT_FALSE(known_limit_of_run("owner_only_release", scenario.config, 1, unfenced)) << "no lock must lose this";
  sim::RunConfig standalone = scenario.config;
  standalone.cluster = sim::ClusterConfig{};
  standalone.nodes = std::vector<sim::NodeConfig>(1);
  standalone.faults = {sim::FaultSpec{.at_us = 1000000, .kind = sim::FaultKind::node_crash, .node = 0}};
  EXPECT_FALSE(known_limit_of_run("mutual_exclusion_server", standalone, 1, unfenced)) << "no replica, no failover";
}

// A lost update of an unfenced resource rests on the client-level overlap: when the first holder's clock ran slow
// past the drift margin by more than that overlap (the client verdict's kHolderClockSlow), the lost update is the
// same known limit. The gate at 1000 runs, seed 195 (and 113), called token-wait's lost update its own bug: the
// slow clock was read for mutual_exclusion_client only.
TEST(Explore, ALostUpdateOnASlowHoldersClockIsShownByTheRun) {
  const sim::Scenario scenario = sim::load_scenario(
      std::string(LOCKCHECK_SOURCE_DIR) + "/tools/explore/test/fixtures/token-wait-slow-holder-clock-lost-update.toml");
  const std::uint64_t seed = scenario.seeds.front();
  properties::Verdict violated;
  violated.outcome = properties::Outcome::violated;
  const auto shown = shown_by_the_run("mutual_exclusion_resource", violated, scenario.config, seed, sim::Fencing::off);
  ASSERT_TRUE(shown) << "the lost update was called the lock's own";
  EXPECT_NE(shown->find("clock ran slower than the lock's drift margin"), std::string::npos) << *shown;
  EXPECT_FALSE(shown_by_the_run("mutual_exclusion_resource", violated, scenario.config, seed, sim::Fencing::reads_and_writes))
      << "a fenced resource's lost update is the lock's";
}

// The gate on clusters: the token lock is the reference of its kind, so an own bug of it is a gap in the theory or
// a checker's mistake. Both were met on these scenarios (seed 5): the cluster's own failover after a node_crash
// taken for the lock's bug, and a release on a node promoted back after it rejoined taken for another's.
TEST(Explore, OnClustersTheReferenceLockHasNoOwnBug) {
  for (const char* file : {"cluster-master-crash-ttl-over-node-timeout-breaks", "cluster-split-brain-breaks-token"}) {
    const sim::Scenario scenario = sim::load_scenario(std::string(LOCKCHECK_SOURCE_DIR) + "/scenarios/" + file + ".toml");
    ExploreOptions options;
    options.seed = 5;
    options.budget_runs = 300;
    options.jobs = 2;
    options.all_properties = true;
    Explorer explorer(scenario.config, false, options);
    for (int step = 0; step < 100000 && explorer.step(); ++step) {
    }
    for (const Find& find : explorer.result().finds) ADD_FAILURE() << file << ": " << find.property << ": " << find.decided_by;
    EXPECT_FALSE(explorer.result().limits.empty()) << file << ": the search met the topology's limits";
  }
}

// The first find of a search of `budget_runs` runs of a user's scripts (paths under the source tree; renew "" for
// none), of `property` when given, with its story in one string.
struct ScriptFind {
  Find find;
  std::string story;
};
ScriptFind first_find_of_scripts(const std::string& acquire, const std::string& release, const std::string& renew,
                                 const std::string& property = "", std::uint64_t budget_runs = 50) {
  const auto read = [](const std::string& path) {
    std::ifstream in(std::string(LOCKCHECK_SOURCE_DIR) + "/" + path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  };
  const auto file_name = [](const std::string& path) { return path.substr(path.rfind('/') + 1); };
  sim::RunConfig base = explore_base_for_variant("script");
  base.scripts = UserScripts{read(acquire), read(release), renew.empty() ? "" : read(renew)};
  base.scripts.acquire_name = file_name(acquire);
  base.scripts.release_name = file_name(release);
  if (!renew.empty()) base.scripts.renew_name = file_name(renew);
  ExploreOptions options;
  options.budget_runs = budget_runs;
  options.shrink_simulations = 64;
  options.only_property = property;
  Explorer explorer(base, /*can_renew=*/!renew.empty(), options);
  for (int step = 0; step < 1000 && explorer.step(); ++step) {
  }
  if (explorer.result().finds.empty()) return {};
  ScriptFind first{explorer.result().finds.front(), ""};
  for (const std::string& sentence : first.find.story) first.story += sentence + "\n";
  return first;
}

// A find explains itself: what the user's script did to the key, before and after, in the user's file names.
// The GETSET lock of older tutorials overwrites the holder's token even when it refuses.
TEST(Explore, AFindSaysWhatTheScriptDidToTheKey) {
  const ScriptFind first =
      first_find_of_scripts("tools/explore/bench/mutants/getset_acquire.lua", "scenarios/scripts/token_release.lua", "");
  ASSERT_FALSE(first.story.empty());
  EXPECT_NE(first.story.find("getset_acquire.lua (GETSET)"), std::string::npos) << first.story;
  // The refused acquire's token is left in the key, named by the process whose script wrote it though no reply
  // named that token.
  EXPECT_NE(first.story.find("before, process 0's token"), std::string::npos) << first.story;
}

// A renew that answers yes and extends nothing is the renewal property's own bug, and its story shows the TTL
// the renewal left (counted down since the acquire set it), not the TTL the acquire set.
TEST(Explore, ARenewThatMovesNoDeadlineIsARenewalOwnBugWhoseStoryShowsTheTtlLeft) {
  const ScriptFind first = first_find_of_scripts("scenarios/scripts/token_acquire.lua", "scenarios/scripts/token_release.lua",
                                                 "tools/explore/bench/mutants/pexpire_nx_renew.lua", "renewal");
  EXPECT_EQ(first.find.verdict.property, "renewal");
  EXPECT_NE(first.find.verdict.cause.find("moved no deadline"), std::string::npos) << first.find.verdict.cause;
  EXPECT_NE(first.story.find("renew (sent at"), std::string::npos) << first.story;
  EXPECT_EQ(first.story.find("1000 ms left"), std::string::npos) << "the renewal came a third of the TTL in: " << first.story;
}

// A "self-healing" renew that SETs its key back once it has gone is the renewal property's own bug: the story
// shows the script creating the key (nothing before, the holder's token after).
TEST(Explore, ARenewThatBringsItsKeyBackIsARenewalOwnBug) {
  const ScriptFind first = first_find_of_scripts("scenarios/scripts/token_acquire.lua", "scenarios/scripts/token_release.lua",
                                                 "tools/explore/bench/mutants/self_healing_renew.lua", "renewal",
                                                 /*budget_runs=*/300);  // seed 1 finds it at run 79
  EXPECT_EQ(first.find.verdict.property, "renewal");
  EXPECT_TRUE(first.find.own_bug);
  EXPECT_NE(first.find.verdict.cause.find("but the key was gone when it ran"), std::string::npos) << first.find.verdict.cause;
  EXPECT_NE(first.story.find("self_healing_renew.lua (SET)"), std::string::npos) << first.story;
  EXPECT_NE(first.story.find("the key held nothing before"), std::string::npos) << first.story;
}

// An acquire that answers yes to a retry finding its own token, without setting the TTL again, is the lock's
// own bug: the holder counts its validity from the retry while the key keeps the first attempt's TTL. The story
// shows the acquire answering ok while the key held that process's token with less than the TTL left.
TEST(Explore, AnAcquireThatAnswersYesToItsOwnTokenIsAnOwnBugWhoseStoryShowsTheTtlLeft) {
  const ScriptFind first = first_find_of_scripts("tools/explore/bench/mutants/own_token_acquire.lua",
                                                 "scenarios/scripts/token_release.lua", "", "mutual_exclusion_client",
                                                 /*budget_runs=*/2000);
  EXPECT_EQ(first.find.verdict.property, "mutual_exclusion_client");
  EXPECT_TRUE(first.find.own_bug) << first.find.decided_by;  // seed 1 finds it at run 697
  // Some acquire answered ok while its own token sat in the key with less than the run's TTL left: the least
  // "N ms left" of the story's sentences about an acquire that answered ok (-1: no such sentence).
  const std::string_view marker = " ms left)";
  std::int64_t least_left_ms = -1;
  for (const std::string& sentence : first.find.story) {
    const std::size_t at = sentence.find(marker);
    if (sentence.find("'s acquire (sent at") == std::string::npos || sentence.find("answered ok") == std::string::npos ||
        at == std::string::npos) {
      continue;
    }
    const std::size_t digits = sentence.find_last_not_of("0123456789", at - 1) + 1;
    const std::int64_t left_ms = std::stoll(sentence.substr(digits, at - digits));
    if (least_left_ms < 0 || left_ms < least_left_ms) least_left_ms = left_ms;
  }
  EXPECT_GE(least_left_ms, 0) << "no acquire answered ok with the TTL its key had left: " << first.story;
  EXPECT_LT(least_left_ms, first.find.minimal.config.lock.ttl.count()) << first.story;
}

// A renew that strips the TTL (SET ... XX) is the renewal property's own bug too, and the story shows the key
// before the script's SET (its TTL) and after it (none): one command's lines are told as one change.
TEST(Explore, ARenewThatStripsTheTtlIsToldAsTheKeyLosingItsExpiry) {
  const ScriptFind first = first_find_of_scripts("scenarios/scripts/token_acquire.lua", "scenarios/scripts/token_release.lua",
                                                 "scenarios/scripts/ttl_stripping_renew.lua", "renewal");
  EXPECT_EQ(first.find.verdict.property, "renewal");
  EXPECT_NE(first.find.verdict.cause.find("the key no longer expires"), std::string::npos) << first.find.verdict.cause;
  EXPECT_NE(first.story.find("ttl_stripping_renew.lua (SET)"), std::string::npos) << first.story;
  EXPECT_NE(first.story.find("ms left) before"), std::string::npos) << "the key had its TTL before the SET: " << first.story;
  EXPECT_NE(first.story.find("no expiry) after"), std::string::npos) << first.story;
}

// An acquire that sets the TTL in whole seconds is right for the base's 1000 ms: explore draws a user's TTL
// (1.5 and 2.5 times the base's too), finds the key that lives less than the validity as the lock's own bug,
// and the story says which TTL the script set against the lock's.
TEST(Explore, AnAcquireThatRoundsTheTtlIsFoundUnderADrawnTtl) {
  const ScriptFind first =
      first_find_of_scripts("tools/explore/bench/mutants/whole_seconds_acquire.lua", "scenarios/scripts/token_release.lua", "");
  EXPECT_TRUE(first.find.own_bug) << first.find.decided_by;
  EXPECT_NE(first.find.minimal.config.lock.ttl, Millis(1000));
  EXPECT_NE(first.story.find("the lock's TTL is"), std::string::npos) << first.story;
}

// Shrinking keeps a find's property violated, not its cause: a known limit's example, once shrunk, may have
// shed the limit's faults and kept the lock's own bug (here a key that lives 1000 ms for a 1500 ms lock, found
// first in a run whose pause made a late holder). Every example of a known limit is one on its shrunk run: a
// late holder's (F4), or one the reference lock breaks too.
TEST(Explore, AKnownLimitsExampleIsAKnownLimitOnceShrunk) {
  const auto read = [](const std::string& path) {
    std::ifstream in(std::string(LOCKCHECK_SOURCE_DIR) + "/" + path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  };
  sim::RunConfig base = explore_base_for_variant("script");
  base.scripts = UserScripts{read("tools/explore/bench/mutants/whole_seconds_acquire.lua"),
                             read("scenarios/scripts/token_release.lua"), ""};
  ExploreOptions options;
  options.budget_runs = 40;
  options.shrink_simulations = 64;
  options.all_properties = true;
  options.pins.ttl_ms = 1500;
  Explorer explorer(base, false, options);
  for (int step = 0; step < 1000 && explorer.step(); ++step) {
  }
  EXPECT_FALSE(explorer.result().finds.empty()) << "the key that lives less than the validity is the lock's own bug";
  for (const ExploreResult::LimitMet& met : explorer.result().limits) {
    const Find& example = met.example;
    const bool late_holder = properties::late_holder(example.verdict);
    const ReferenceJudgement again =
        judge_reference(example.minimal.config, example.minimal.seed, example.selector(), "token", 48, late_holder);
    EXPECT_TRUE(late_holder || again.violated) << example.selector() << ": " << example.verdict.cause;
  }
}

}  // namespace
}  // namespace lockcheck::explore
