#pragma once
// One simulated run: a scenario's configuration and a seed in, a history and figures out.
#include <cstdint>

#include "model/run_config.hpp"
#include "model/history.hpp"

namespace lockcheck::sim {

struct RunResult {
  History history;
  std::uint64_t events = 0;          // scheduler events run
  std::int64_t simulated_us = 0;     // true time covered
  bool hit_event_limit = false;      // the run stopped at RunConfig::max_events before its end
};

RunResult simulate(const RunConfig& config, std::uint64_t seed);

}  // namespace lockcheck::sim
