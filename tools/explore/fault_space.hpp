#pragma once
// The fault model and workload shapes explore draws from, bounded by the starting configuration: its
// topology decides which kinds apply (failover needs a replica, slot migration a cluster), its TTL scales
// every duration (pauses, clock jumps and holds around the TTL are where locks break).
#include <vector>

#include "model/run_config.hpp"
#include "model/prng.hpp"
#include "run_plan.hpp"

namespace lockcheck::explore {

// Fault kinds this configuration can take: eviction only where a node has an eviction policy, failover and
// replica partitions only with a replica, slot migration and split-brain only with their topology (follow-ups such as restart, node_restart and heal are drawn
// with the fault they end, not on their own).
std::vector<sim::FaultKind> applicable_kinds(const sim::RunConfig& config);
// False for the kinds drawn with the fault they end (restart, node_restart, heal): never drawn, nor named in
// `--without`, on their own.
bool drawn_on_its_own(sim::FaultKind kind);
// applicable_kinds() but those in `without`.
std::vector<sim::FaultKind> searched_kinds(const sim::RunConfig& config, const std::vector<sim::FaultKind>& without);
// Removes the faults of a kind in `without` from `faults`, and with a crash (a node crash) its restart (node
// restart).
void leave_out(const std::vector<sim::FaultKind>& without, std::vector<sim::FaultSpec>& faults);

// A random non-empty subset of `kinds` (swarm testing: each kind on with probability 1/2).
std::vector<sim::FaultKind> swarm_subset(const std::vector<sim::FaultKind>& kinds, sim::Prng& prng);

// Appends one fault of `kind` at a random time (and the fault that ends it, when it has one).
void draw_fault(sim::FaultKind kind, const sim::RunConfig& config, sim::Prng& prng, std::vector<sim::FaultSpec>& out);

// As draw_fault, then moves the fault (with the one that ends it) earlier where needed, so that it is over
// `aftermath_us` before the run ends: in a short run, a pause that outlasts the run shows nothing.
void draw_fault_to_play_out(sim::FaultKind kind, const sim::RunConfig& config, std::int64_t aftermath_us, sim::Prng& prng,
                            std::vector<sim::FaultSpec>& out);

// Draws the workload shape within the base's bounds: client count, hold times against the TTL, nesting for
// a variant the base nests, renewal on or off where the lock can renew.
void draw_workload(const sim::RunConfig& base, bool can_renew, sim::Prng& prng, sim::RunConfig& out);

// Sorts by time (stable: the drawn order of faults at one time is kept) and rounds to whole milliseconds,
// the scenario format's unit.
void normalize(std::vector<sim::FaultSpec>& faults);

}  // namespace lockcheck::explore
