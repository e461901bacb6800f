#pragma once
// One run explore tries: a whole configuration (workload shape and fixed fault schedule) and its seed.
// Everything explore varies is in the schedule and the workload; nothing is left to the random nemesis, so
// a plan is exactly what a scenario file can state.
#include <cstdint>
#include <vector>

#include "model/run_config.hpp"

namespace lockcheck::explore {

struct RunPlan {
  sim::RunConfig config;
  std::uint64_t seed = 1;
  std::vector<sim::FaultKind> enabled;  // the swarm's fault kinds for this run (what mutations may add)
};

}  // namespace lockcheck::explore
