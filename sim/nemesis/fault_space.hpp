#pragma once
// The one fault generator: every fault a run is given by chance is drawn here, from the kinds' rows
// (model/fault.hpp) and the configuration's topology. Explore draws whole schedules from it (ranges scaled by
// the TTL); a scenario file's random nemesis ([nemesis], random_schedule.cpp) draws the same kinds with the
// ranges the file states, at times of its own; compare's fault families are named, seeded streams of it
// (model/fault_ranges.hpp DrawnFaults, tools/compare_plan/fault_families.cpp), drawn from a run's seed by
// draw_streams (random_schedule.cpp) with narrow or fixed ranges and, where a family names them, its targets.
#include <cstdint>
#include <optional>
#include <vector>

#include "model/fault_ranges.hpp"
#include "model/prng.hpp"
#include "model/run_config.hpp"

namespace lockcheck::sim {

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

// Appends the faults of each stream, each drawn from its own sub-seed of `seed` (DrawnFaults), sorted by time
// (stable). draw_nemesis_schedule is this over the file's five [nemesis] kinds, then NemesisConfig::drawn.
std::vector<FaultSpec> draw_streams(const std::vector<DrawnFaults>& streams, const RunConfig& config, std::uint64_t seed);
// The scenario file's [nemesis] as streams: "nemesis/pause", "nemesis/crash", ..., those with a rate.
std::vector<DrawnFaults> nemesis_streams(const NemesisConfig& nemesis);

// Sorts by time (stable: the drawn order of faults at one time is kept) and rounds to whole milliseconds,
// the scenario format's unit.
void normalize(std::vector<FaultSpec>& faults);

}  // namespace lockcheck::sim
