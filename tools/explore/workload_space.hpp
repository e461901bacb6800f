#pragma once
// The workload shapes explore draws, bounded by the starting configuration: client counts, hold times
// against the TTL, nesting, renewal, careful holders. Its faults come from the one generator
// (sim/nemesis/fault_space.hpp).
#include "model/prng.hpp"
#include "model/run_config.hpp"
#include "nemesis/fault_space.hpp"
#include "run_plan.hpp"

namespace lockcheck::explore {

// Draws the workload shape within the base's bounds: the TTL of a user's scripts, client count, hold times
// against the TTL, nesting for a variant the base nests, renewal on or off where the lock can renew.
void draw_workload(const sim::RunConfig& base, bool can_renew, sim::Prng& prng, sim::RunConfig& out);

}  // namespace lockcheck::explore
