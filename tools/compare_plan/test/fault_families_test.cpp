// The fault families are named, seeded subsets of the one generator (fault_families.hpp): each cell's faults are
// drawn from the run's seed through sim::draw_nemesis_schedule, never placed by hand.
#include "fault_families.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <set>

#include "lockcheck/key_slot.hpp"
#include "model/variant_config.hpp"
#include "nemesis/fault_space.hpp"

namespace lockcheck::compare {
namespace {

using sim::FaultKind;
using sim::FaultSpec;

sim::RunConfig cell(const std::string& variant, const FaultFamily& family) {
  sim::RunConfig config = sim::variant_base_config(variant);
  family.apply(config);
  return config;
}

// The kinds a family may put in a schedule: those it draws, and the ones that end them (restart, heal, ...).
std::set<FaultKind> kinds_of(const FaultFamily& family) {
  std::set<FaultKind> kinds;
  for (const FamilyDraw& draw : family.draws) {
    kinds.insert(draw.kind);
    if (const auto ending = sim::fault_row(draw.kind).ended_by) kinds.insert(*ending);
  }
  return kinds;
}

bool draws_its_times(const FaultFamily& family) {
  return std::any_of(family.draws.begin(), family.draws.end(), [](const FamilyDraw& d) { return d.every_ms > 0; });
}

TEST(FaultFamilies, EachCellsFaultsAreDrawnFromItsSeedWithinTheFamilysKinds) {
  for (const FaultFamily& family : fault_families()) {
    for (const std::string variant : {"token", "redlock", "token-wait"}) {
      const sim::RunConfig config = cell(variant, family);
      EXPECT_TRUE(config.faults.empty()) << family.id << ": no fault placed by hand";
      EXPECT_EQ(config.nemesis.drawn.size(), family.draws.size()) << family.id;
      const std::set<FaultKind> kinds = kinds_of(family);
      std::vector<std::vector<FaultSpec>> schedules;
      for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        const std::vector<FaultSpec> drawn = sim::draw_nemesis_schedule(config, seed);
        EXPECT_EQ(drawn, sim::draw_nemesis_schedule(config, seed)) << family.id << " seed " << seed;
        EXPECT_EQ(drawn.empty(), family.draws.empty()) << family.id << " " << variant << " seed " << seed;
        for (const FaultSpec& fault : drawn) {
          EXPECT_TRUE(kinds.contains(fault.kind)) << family.id << ": " << sim::describe(fault);
          // Within the run (lossy's loss ends at its end); a restart or heal may fall after it, as the nemesis's do.
          if (!sim::fault_row(fault.kind).follow_up) {
            EXPECT_LE(fault.at_us, config.duration_us) << family.id << ": " << sim::describe(fault);
          }
        }
        if (std::find(schedules.begin(), schedules.end(), drawn) == schedules.end()) schedules.push_back(drawn);
      }
      // A family with drawn times draws another schedule from another seed (one with pinned times may too: the
      // clients and signs client-clock draws).
      if (draws_its_times(family)) {
        EXPECT_GT(schedules.size(), 1u) << family.id << " " << variant;
      }
    }
  }
}

TEST(FaultFamilies, TheFourNemesisFamiliesDrawAsAScenarioFilesNemesisWould) {
  // pause, crash, partition and restart keep the [nemesis] sub-seeds: their cells are what they were when they set it.
  sim::RunConfig nemesis = sim::variant_base_config("token");
  nemesis.nemesis.pause_every_us = 2000000;
  nemesis.nemesis.pause_min_us = 1500000;
  nemesis.nemesis.pause_max_us = 3000000;
  nemesis.nemesis.crash_every_us = 1500000;
  nemesis.nemesis.restart_after_us = 500000;
  nemesis.nemesis.partition_every_us = 2000000;
  nemesis.nemesis.partition_min_us = 100000;
  nemesis.nemesis.partition_max_us = 1500000;
  nemesis.nemesis.node_crash_every_us = 1500000;
  nemesis.nemesis.node_restart_after_us = 50000;
  nemesis.nemesis.restart_mode = sim::RestartMode::lost;
  sim::RunConfig families = sim::variant_base_config("token");
  for (const std::string id : {"pause", "crash", "partition", "restart"}) fault_family(id).apply(families);
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    EXPECT_EQ(sim::draw_nemesis_schedule(families, seed), sim::draw_nemesis_schedule(nemesis, seed)) << "seed " << seed;
  }
}

TEST(FaultFamilies, TargetsAndSizesAreTheOnesTheDescriptionsName) {
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const sim::RunConfig jumps = cell("redlock", fault_family("clock-jump"));
    for (const FaultSpec& jump : sim::draw_nemesis_schedule(jumps, seed)) {
      EXPECT_EQ(jump.node, 0);  // one of Redlock's five masters, as the description says
      EXPECT_EQ(jump.delta_us, 3 * sim::kBaseTtlMs * 1000);
    }
    const sim::RunConfig evictions = cell("token", fault_family("eviction"));
    for (const FaultSpec& evict : sim::draw_nemesis_schedule(evictions, seed)) {
      EXPECT_EQ(evict.node, 0);
      EXPECT_EQ(evict.evict_target, sim::EvictTarget::lock);
    }
    // token-wait's own replica (node 1) stays: the failovers promote the two the family adds.
    const sim::RunConfig failovers = cell("token-wait", fault_family("failover"));
    const std::vector<FaultSpec> promoted = sim::draw_nemesis_schedule(failovers, seed);
    ASSERT_EQ(promoted.size(), 2u);
    EXPECT_EQ(promoted[0].at_us, 2500000);
    EXPECT_EQ(promoted[0].node, static_cast<int>(failovers.nodes.size()) - 2);
    EXPECT_EQ(promoted[1].at_us, 5500000);
    EXPECT_EQ(promoted[1].node, static_cast<int>(failovers.nodes.size()) - 1);
    const sim::RunConfig shard = cell("token", fault_family("cluster-failover"));
    const int lock_shard = sim::cluster_shard_of_slot(shard.cluster, key_hash_slot(shard.workload.key));
    for (const FaultSpec& failover : sim::draw_nemesis_schedule(shard, seed)) {
      EXPECT_EQ(failover.node, sim::cluster_replica_of_shard(shard.cluster, lock_shard));
    }
    const sim::RunConfig migrations = cell("token", fault_family("slot-migration"));
    for (const FaultSpec& migration : sim::draw_nemesis_schedule(migrations, seed)) {
      EXPECT_NE(migration.node, lock_shard);  // to another shard's master
      EXPECT_GE(migration.duration_us, 600000);
      EXPECT_LE(migration.duration_us, 1000000);
    }
    const sim::RunConfig skew = cell("token", fault_family("client-clock"));
    const std::vector<FaultSpec> clocks = sim::draw_nemesis_schedule(skew, seed);
    ASSERT_EQ(clocks.size(), 3u);
    for (const FaultSpec& clock : clocks) {
      EXPECT_EQ(clock.at_us, 0);
      if (clock.kind == FaultKind::client_clock_jump) {
        EXPECT_EQ(clock.delta_us, 5000000);
      } else {
        EXPECT_EQ(std::abs(clock.drift_ppm), 50000);
      }
    }
    const sim::RunConfig split = cell("token", fault_family("sentinel-split-brain"));
    const std::vector<FaultSpec> cut = sim::draw_nemesis_schedule(split, seed);
    ASSERT_EQ(cut.size(), 2u);  // once, then its heal 3.5 s later
    EXPECT_EQ(cut[0].kind, FaultKind::split_brain);
    EXPECT_GE(cut[0].at_us, 1000000);
    EXPECT_LE(cut[0].at_us, 3000000);
    EXPECT_EQ(cut[1].kind, FaultKind::heal);
    EXPECT_EQ(cut[1].at_us - cut[0].at_us, 3500000);
  }
}

TEST(FaultFamilies, TwoDrawsOfOneKindHaveSubSeedsOfTheirOwn) {
  const sim::RunConfig skew = cell("token", fault_family("client-clock"));
  std::set<std::string> names;
  for (const sim::DrawnFaults& stream : skew.nemesis.drawn) names.insert(stream.name);
  EXPECT_EQ(names.size(), skew.nemesis.drawn.size());
}

// The stream mechanics the families rest on (sim/nemesis/random_schedule.cpp): a cap, a jitter, fixed times, and
// named targets.
TEST(DrawnFaults, CapsJitterFixedTimesAndNamedTargets) {
  sim::RunConfig config = sim::variant_base_config("redlock");  // five masters
  sim::DrawnFaults capped{.name = "t/capped", .kind = FaultKind::pause, .every_us = 1000000, .jitter_us = 100000,
                          .max_count = 3};
  capped.ranges.pause = {100000, 100000, true};
  capped.ranges.processes = {2};
  sim::DrawnFaults pinned{.name = "t/pinned", .kind = FaultKind::node_clock_jump, .at_us = {500000, 9000000000}};
  pinned.ranges.clock_jump = {1000000, 1000000, true};
  pinned.ranges.nodes = {3};
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const std::vector<FaultSpec> drawn = sim::draw_streams({capped, pinned}, config, seed);
    ASSERT_EQ(drawn.size(), 4u);  // three pauses; one jump (the second time is past the run)
    std::int64_t last_pause_us = 0;
    for (const FaultSpec& fault : drawn) {
      if (fault.kind == FaultKind::node_clock_jump) {
        EXPECT_EQ(fault.at_us, 500000);
        EXPECT_EQ(fault.node, 3);
        EXPECT_EQ(fault.delta_us, 1000000);
        continue;
      }
      EXPECT_EQ(fault.process, 2);
      EXPECT_GE(fault.at_us - last_pause_us, 900000);
      EXPECT_LE(fault.at_us - last_pause_us, 1100000);
      last_pause_us = fault.at_us;
    }
  }
}

}  // namespace
}  // namespace lockcheck::compare
