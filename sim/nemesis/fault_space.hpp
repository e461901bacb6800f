#pragma once
// The one fault generator: every fault a run is given by chance is drawn here, from the kinds' rows
// (model/fault.hpp) and the configuration's topology. Explore draws whole schedules from it (ranges scaled by
// the TTL); a scenario file's random nemesis ([nemesis], random_schedule.cpp) draws the same kinds with the
// ranges the file states, at times of its own; compare's families set the nemesis or place faults by hand.
#include <cstdint>
#include <optional>
#include <vector>

#include "model/prng.hpp"
#include "model/run_config.hpp"

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
};

// Explore's ranges: pauses of 0.3-3 TTLs, clock jumps of 0.2-3 TTLs either way, drifts of 0.1-30%, ...
FaultRanges ttl_scaled_ranges(const RunConfig& config);
// A scenario file's [nemesis] ranges, as it states them.
FaultRanges nemesis_ranges(const NemesisConfig& nemesis);

// Kinds this configuration can take (the rows' `needs`: eviction only where a node has an eviction policy,
// failover and replica partitions only with a replica, slot migration and split brain only with their
// topology); follow-ups (restart, node_restart, heal) come with the fault they end, not on their own.
std::vector<FaultKind> applicable_kinds(const RunConfig& config);
// False for the follow-ups: never drawn, nor named in `--without`, on their own.
bool drawn_on_its_own(FaultKind kind);
// applicable_kinds() but those in `without`.
std::vector<FaultKind> searched_kinds(const RunConfig& config, const std::vector<FaultKind>& without);
// Removes the faults of a kind in `without` from `faults`, and with them the follow-ups that end only those.
void leave_out(const std::vector<FaultKind>& without, std::vector<FaultSpec>& faults);
// A random non-empty subset of `kinds` (swarm testing: each kind on with probability 1/2).
std::vector<FaultKind> swarm_subset(const std::vector<FaultKind>& kinds, Prng& prng);

// Appends one fault of `kind` at `at_us` (and the fault that ends it, when it has one), its target and
// size drawn from `prng` within `ranges`.
void draw_fault_at(FaultKind kind, std::int64_t at_us, const RunConfig& config, const FaultRanges& ranges, Prng& prng,
                   std::vector<FaultSpec>& out);
// Explore's draw: a time in the run's first four fifths, then draw_fault_at with ttl_scaled_ranges().
void draw_fault(FaultKind kind, const RunConfig& config, Prng& prng, std::vector<FaultSpec>& out);
// As draw_fault, then moves the fault (with the one that ends it) earlier where needed, so that it is over
// `aftermath_us` before the run ends: in a short run, a pause that outlasts the run shows nothing.
void draw_fault_to_play_out(FaultKind kind, const RunConfig& config, std::int64_t aftermath_us, Prng& prng,
                            std::vector<FaultSpec>& out);

// Sorts by time (stable: the drawn order of faults at one time is kept) and rounds to whole milliseconds,
// the scenario format's unit.
void normalize(std::vector<FaultSpec>& faults);

}  // namespace lockcheck::sim
