#include "compare_plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "fault_families.hpp"
#include "lockcheck/variants/registry.hpp"
#include "reports/cell_status.hpp"

namespace lockcheck::compare {
namespace {

TEST(ComparePlan, EveryRegisteredVariantButScriptByDefault) {
  const ComparePlan plan = plan_comparison(CompareSelection{});
  EXPECT_EQ(std::count(plan.variants.begin(), plan.variants.end(), "script"), 0);
  EXPECT_EQ(plan.variants.size() + 1, variant_ids().size());
  ASSERT_EQ(plan.notes.size(), 1u);
  EXPECT_NE(plan.notes[0].find("script"), std::string::npos);
  EXPECT_EQ(plan.families.front().id, "baseline");
  EXPECT_EQ(plan.cells.size(), plan.variants.size() * plan.families.size());
  EXPECT_EQ(plan.seeds.size(), 10u);
}

TEST(ComparePlan, UnknownIdsAreUsageErrors) {
  EXPECT_THROW(plan_comparison(CompareSelection{{"no-such-lock"}, {}, 1, {}, {}, {}, {}}), std::invalid_argument);
  EXPECT_THROW(plan_comparison(CompareSelection{{"token"}, {"no-such-fault"}, 1, {}, {}, {}, {}}), std::invalid_argument);
  EXPECT_THROW(plan_comparison(CompareSelection{{"script"}, {}, 1, {}, {}, {}, {}}), std::invalid_argument);
}

TEST(ComparePlan, RedlockGetsFiveMastersAndFailoverAddsReplicas) {
  const ComparePlan plan = plan_comparison(CompareSelection{{"redlock", "token"}, {"baseline", "failover"}, 2, {}, {}, {}, {}});
  ASSERT_EQ(plan.cells.size(), 4u);
  EXPECT_EQ(plan.cells[0].scenario.config.nodes.size(), 5u);
  EXPECT_EQ(plan.cells[1].scenario.config.nodes.size(), 7u);
  EXPECT_EQ(plan.cells[2].scenario.config.nodes.size(), 1u);
  EXPECT_EQ(plan.cells[3].scenario.name, "token--failover");
  EXPECT_EQ(plan.cells[3].scenario.seeds, (std::vector<std::uint64_t>{1, 2}));
}

TEST(ComparePlan, DisclosesEachVariantsWorkload) {
  const ComparePlan plan =
      plan_comparison(CompareSelection{{"token", "redlock", "reentrant-hash", "rw-owned", "fenced"}, {"baseline"}, 1, {}, {}, {}, {}});
  ASSERT_EQ(plan.workloads.size(), plan.variants.size());
  for (std::size_t i = 0; i < plan.variants.size(); ++i) {
    const reports::Workload& workload = plan.workloads[i];
    EXPECT_EQ(workload.variant, plan.variants[i]);
    EXPECT_EQ(workload.clients, 3);
    EXPECT_EQ(workload.ttl_us, 1'000'000);
    EXPECT_EQ(workload.duration_us, plan.cells[i].scenario.config.duration_us);
    EXPECT_EQ(workload.hold_max_us, plan.cells[i].scenario.config.workload.hold_max_us);
  }
  EXPECT_EQ(plan.workloads[0].masters, 1);
  EXPECT_EQ(plan.workloads[0].nest_every, 0);
  EXPECT_EQ(plan.workloads[1].masters, 5);
  EXPECT_EQ(plan.workloads[2].nest_every, 2);
  EXPECT_EQ(plan.workloads[3].readers_ppm, 500000);
  EXPECT_TRUE(plan.workloads[4].fencing);
  EXPECT_FALSE(plan.workloads[0].fencing);
}

TEST(ComparePlan, ReplayCommandNamesTheCell) {
  EXPECT_EQ(replay_command(CompareSelection{}, "token", "pause", 7),
            "lockcheck compare --variants token --faults pause --seed 7 --history-dir .");
  EXPECT_EQ(selection_command(CompareSelection{}), "lockcheck compare");
  EXPECT_EQ(selection_command(CompareSelection{{"token"}, {}, 5, {}, {}, {}, {}}), "lockcheck compare --variants token --runs 5");
}

TEST(ComparePlan, WatchdogRowsWrapTheNamedVariant) {
  const ComparePlan plan = plan_comparison(CompareSelection{{"token+watchdog", "fenced"}, {"baseline"}, 1, {}, {}, {}, {}});
  ASSERT_EQ(plan.cells.size(), 2u);
  const sim::RunConfig& wrapped = plan.cells[0].scenario.config;
  EXPECT_EQ(plan.cells[0].variant, "token+watchdog");
  EXPECT_EQ(plan.cells[0].scenario.name, "token+watchdog--baseline");
  EXPECT_EQ(wrapped.variant, "token");
  EXPECT_TRUE(wrapped.renewal.watchdog);
  EXPECT_GT(wrapped.workload.hold_max_us, wrapped.lock.ttl.count() * 1000) << "holds past the TTL, so renewal matters";
  EXPECT_FALSE(plan.cells[1].scenario.config.renewal.watchdog);
  EXPECT_EQ(plan.cells[1].scenario.config.workload.fencing, sim::Fencing::writes);
  EXPECT_EQ(replay_command(CompareSelection{}, "token+watchdog", "pause", 2),
            "lockcheck compare --variants token+watchdog --faults pause --seed 2 --history-dir .");
}

TEST(ComparePlan, WatchdogRowsOnlyForVariantsThatCanRenew) {
  for (const char* row : {"watchdog+watchdog", "redisson-like+watchdog", "script+watchdog", "nope+watchdog"}) {
    EXPECT_THROW(plan_comparison(CompareSelection{{row}, {}, 1, {}, {}, {}, {}}), std::invalid_argument) << row;
  }
  // Two files: no renew.lua, so nothing a watchdog could renew with (checked before any file is read).
  EXPECT_THROW(plan_comparison(CompareSelection{{"script+watchdog"}, {}, 1, {}, {"a.lua", "r.lua"}, {}, {}}), std::invalid_argument);
}

TEST(ComparePlan, ARenewScriptAddsTheScriptWatchdogRow) {
  const std::string dir = LOCKCHECK_SCENARIO_SCRIPTS;
  const std::vector<std::string> two{dir + "/token_acquire.lua", dir + "/token_release.lua"};
  std::vector<std::string> three = two;
  three.push_back(dir + "/token_renew.lua");
  const ComparePlan without = plan_comparison(CompareSelection{{}, {"baseline"}, 1, {}, two, {}, {}});
  EXPECT_EQ(without.variants.back(), "script");
  const ComparePlan with = plan_comparison(CompareSelection{{}, {"baseline"}, 1, {}, three, {}, {}});
  ASSERT_GE(with.variants.size(), 2u);
  EXPECT_EQ(with.variants[with.variants.size() - 2], "script");
  EXPECT_EQ(with.variants.back(), "script+watchdog");
  const sim::RunConfig& config = with.cells.back().scenario.config;
  EXPECT_TRUE(config.renewal.watchdog);
  EXPECT_FALSE(config.scripts.renew.empty()) << "the user's renew.lua is what the watchdog runs";
}

TEST(ComparePlan, NamedScriptSetsSideBySideWithoutTheCatalogue) {
  const std::string dir = LOCKCHECK_SCENARIO_SCRIPTS;
  const std::vector<std::string> values{"good=" + dir + "/token_acquire.lua", dir + "/token_release.lua",
                                        dir + "/token_renew.lua", "candidate=" + dir + "/token_acquire.lua",
                                        dir + "/token_release.lua"};
  const ComparePlan plan = plan_comparison(CompareSelection{{}, {"baseline"}, 1, {}, values, {}, {}});
  EXPECT_EQ(plan.variants, (std::vector<std::string>{"good+watchdog", "candidate"}));
  ASSERT_EQ(plan.cells.size(), 2u);
  EXPECT_EQ(plan.workloads[0].variant, "good+watchdog");
  const sim::RunConfig& good = plan.cells[0].scenario.config;
  EXPECT_EQ(good.variant, "script");
  EXPECT_TRUE(good.renewal.watchdog) << "a set with a renew.lua runs it under the watchdog";
  EXPECT_FALSE(good.scripts.renew.empty());
  EXPECT_EQ(good.scripts.renew_name, "token_renew.lua") << "errors name the file";
  EXPECT_FALSE(plan.cells[1].scenario.config.renewal.watchdog);
  EXPECT_EQ(replay_command(CompareSelection{{}, {"baseline"}, 1, {}, values, {}, {}}, "candidate", "baseline", 3),
            "lockcheck compare --scripts candidate=" + dir + "/token_acquire.lua," + dir +
                "/token_release.lua --faults baseline --seed 3 --history-dir .");
  // With --variants, the catalogue rows named come first.
  EXPECT_EQ(plan_comparison(CompareSelection{{"token"}, {"baseline"}, 1, {}, values, {}, {}}).variants,
            (std::vector<std::string>{"token", "good+watchdog", "candidate"}));
}

TEST(ComparePlan, ScriptSetsRefusals) {
  const std::string dir = LOCKCHECK_SCENARIO_SCRIPTS;
  const std::string a = dir + "/token_acquire.lua", r = dir + "/token_release.lua", n = dir + "/token_renew.lua";
  const auto refused = [](std::vector<std::string> variants, std::vector<std::string> values) {
    try {
      plan_comparison(CompareSelection{std::move(variants), {"baseline"}, 1, {}, std::move(values), {}, {}});
    } catch (const std::invalid_argument& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(refused({}, {"x=" + a}).find("wants acquire.lua,release.lua"), std::string::npos);
  EXPECT_NE(refused({}, {"x=" + a, r, "x=" + a, r}).find("two sets are named 'x'"), std::string::npos);
  EXPECT_NE(refused({}, {a, r, "x=" + a, r}).find("name every set"), std::string::npos);
  EXPECT_NE(refused({}, {"token=" + a, r}).find("is a catalogue variant's id"), std::string::npos);
  EXPECT_NE(refused({}, {"x=" + a, dir + "/missing.lua"}).find("cannot read"), std::string::npos);
  // A renew.lua that no row would run (item 6): refused with the fix.
  EXPECT_NE(refused({"script"}, {a, r, n}).find("no row runs this renew.lua"), std::string::npos);
  EXPECT_EQ(refused({"script", "script+watchdog"}, {a, r, n}), "no error");
}

TEST(ComparePlan, ReportsListPropertiesInTheScenarioFilesOrder) {
  // reports/cell_status.cpp keeps its own copy of the order, since reports do not include sim/.
  for (std::size_t i = 0; i < std::size(sim::kExpectableProperties); ++i) {
    EXPECT_EQ(reports::checker_rank(sim::kExpectableProperties[i]), i) << sim::kExpectableProperties[i];
  }
}

TEST(FaultFamilies, IdsAreUnique) {
  const auto& families = fault_families();
  for (std::size_t i = 0; i < families.size(); ++i) {
    for (std::size_t j = i + 1; j < families.size(); ++j) EXPECT_NE(families[i].id, families[j].id);
  }
}

}  // namespace
}  // namespace lockcheck::compare
