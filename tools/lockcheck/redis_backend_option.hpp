#pragma once
// `lockcheck run --backend redis`: what the command line calls to run a scenario's seeds on real servers.
#include "run_engine.hpp"

namespace lockcheck::redis_backend {

// `options` with every seed of `scenario` running on real redis-servers (redis_run.hpp). Throws
// std::invalid_argument when the scenario asks for something this backend cannot make real.
cli::RunOptions with_redis_backend(const sim::Scenario& scenario, cli::RunOptions options);

}  // namespace lockcheck::redis_backend
