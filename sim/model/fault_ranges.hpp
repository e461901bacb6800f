#pragma once
// How far the one fault generator (sim/nemesis/fault_space.hpp) may go when it draws a fault, and a named,
// seeded stream of its draws. Here rather than beside the generator because a run's configuration carries
// streams (NemesisConfig::drawn: compare's fault families), drawn from the run's seed when the run starts.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/fault.hpp"

namespace lockcheck::sim {

// A range a draw takes its value from: uniform in [low, high] thousandths of `unit_us` (drift: ppm as is),
// so that explore's ranges follow the TTL. A fixed range takes `low` without drawing (a [nemesis]
// restart_after_ms).
struct DrawRange {
  std::int64_t low = 0;
  std::int64_t high = 0;
  bool fixed = false;
};

// How far drawn faults go. A value below `floor_us` is raised to it (a 0 ms pause shows nothing); signed
// ranges (clock jumps and drifts) are either drawn as a magnitude with a coin for the sign, or straight
// from a range around 0.
struct FaultRanges {
  std::int64_t unit_us = 1000;  // what a range's thousandths are of: explore, the TTL; the nemesis, 1 ms
  std::int64_t floor_us = 0;
  bool sign_by_coin = false;
  bool end_within_run = false;  // a fault's end (restart, heal) is moved to the run's end when later
  DrawRange pause, crash_for, clock_jump, drift_ppm, node_crash_for, partition_for, loss_ppm, loss_for, slow_by,
      slow_for, replica_cut_for, migration_for, split_for;
  std::optional<RestartMode> restart_mode;  // drawn when empty
  std::optional<EvictTarget> evict_target;  // drawn (a coin) when empty
  // The targets a draw picks from, when not every one the kind can take (empty): a family's "the lock's
  // master". Each must be one the kind can take (a failover's, a replica).
  std::vector<int> nodes, processes;
};

// One kind drawn by the generator at times of its own, from its own sub-seed derive_seed(run seed, name): the
// scenario file's [nemesis] is five of these, a compare fault family a few (tools/compare_plan/fault_families.cpp).
struct DrawnFaults {
  std::string name = {};
  FaultKind kind = FaultKind::pause;
  // Drawn times: gaps uniform in [every - jitter, every + jitter] (mean `every`; jitter every/2 when not given)
  // from 0 while within the run, at most `max_count` of them (0: no cap). With every_us = 0, the fixed times
  // `at_us` instead.
  std::int64_t every_us = 0;
  std::optional<std::int64_t> jitter_us = std::nullopt;
  int max_count = 0;
  std::vector<std::int64_t> at_us = {};
  FaultRanges ranges = {};
};

}  // namespace lockcheck::sim
