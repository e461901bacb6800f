#include "core/simulate.hpp"

#include "core/world.hpp"
#include "lockcheck/assert.hpp"

namespace lockcheck::sim {

RunResult simulate(const RunConfig& config, std::uint64_t seed) {
  RunResult result;
  {
    World world(config, seed);
    result.events = world.run();
    LOCKCHECK_ASSERT(result.events <= config.max_events);  // a run stops at its event budget
    result.simulated_us = world.scheduler().now();
    result.hit_event_limit = result.events >= config.max_events;
    result.history = std::move(world.history());
  }
  return result;
}

}  // namespace lockcheck::sim
