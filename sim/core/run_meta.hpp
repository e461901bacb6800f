#pragma once
// The history's meta line (sim/README.md), shared by the simulator's World and the redis backend's run, so
// that both describe a run the same way.
#include <cstdint>
#include <string>

#include "core/config.hpp"
#include "core/history.hpp"

namespace lockcheck::sim {

// schema, scenario, seed, variant, watchdog (only when the variant is wrapped in one), ttl_ms, clients,
// nodes, fencing (true unless Fencing::off), fencing_mode (only with fencing: "writes" or
// "reads-and-writes"), end. Fields absent by default keep the histories of runs without them unchanged.
Json run_meta(const SimConfig& config, std::uint64_t seed);

// How reports name what ran: the variant id, or "<id>+watchdog" when a watchdog wraps it.
std::string variant_label(const SimConfig& config);

}  // namespace lockcheck::sim
