#include "redis_backend_option.hpp"

#include "redis_run.hpp"

namespace lockcheck::redis_backend {

cli::RunOptions with_redis_backend(const sim::Scenario& scenario, cli::RunOptions options) {
  for (std::uint64_t seed : cli::seeds_for(scenario, options)) {
    check_supported(scenario.config, seed);
    if (scenario.server == "serve") check_servable(scenario.config, seed);
  }
  options.real_backend = [keep_dir = options.keep_dir](const sim::Scenario& run_scenario, std::uint64_t seed) {
    RedisRunResult run = run_on_redis(run_scenario, seed, keep_dir);
    return cli::BackendHistory{std::move(run.jsonl), std::move(run.unobservable), std::move(run.client_hangs)};
  };
  return options;
}

}  // namespace lockcheck::redis_backend
