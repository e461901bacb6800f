#pragma once
// The history's meta line (line 0) for a run of `config`, shared by the simulator and the redis backend so
// both say the same about what was run, including how the variant keeps its lock (lockcheck::lock_shape:
// derived keys, quorum), which the checkers need to judge it.
#include <cstdint>
#include <string>

#include "model/run_config.hpp"
#include "model/history.hpp"
#include "lockcheck/variants/registry.hpp"

namespace lockcheck::sim {

// schema, scenario, seed, variant, watchdog (only when the variant runs wrapped in one), ttl_ms, clients,
// nodes, fencing (true unless Fencing::off), fencing_mode (only with fencing: "writes" or "reads-and-writes"),
// end, then the lock's shape. Fields absent by default keep the meta lines of runs without them unchanged.
Json history_meta(const RunConfig& config, std::uint64_t seed);

// How `config`'s variant keeps its lock on the masters `config` gives it (replicas are not masters).
LockShape lock_shape_of(const RunConfig& config);

// How reports name what ran: the variant id, or "<id>+watchdog" when a watchdog wraps it.
std::string variant_label(const RunConfig& config);

}  // namespace lockcheck::sim
