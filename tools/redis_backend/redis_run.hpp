#pragma once
// One seed of a scenario on real redis-servers (`lockcheck run --backend redis`): start the topology on
// free loopback ports, start one worker process per client, apply the fault schedule in real time, stop,
// and merge every record into one history (sim/README.md format) with times from CLOCK_MONOTONIC.
// Every process and file it made is removed again, also when it fails or is interrupted (SIGINT/SIGTERM).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/scenario.hpp"

namespace lockcheck::redis_backend {

struct RedisRunResult {
  std::string jsonl;
  // Properties the history cannot support on this backend for this run, with the reason.
  std::map<std::string, std::string> unobservable;
  // External clients that hung and were killed (lockcheck judge), one line each (judge/client_hang.hpp).
  std::vector<std::string> client_hangs;
};

// Throws std::invalid_argument when the scenario asks for something this backend cannot make real
// (named in the message), std::runtime_error on an internal failure or an interruption. `keep_dir` set: the
// run's directory (the clients' standard error, the workers' configuration, the servers' files) is copied to
// keep_dir/<scenario>-seed<seed>/ when the run ends, however it ends, and the copy's path printed on stderr.
RedisRunResult run_on_redis(const sim::Scenario& scenario, std::uint64_t seed, const std::string& keep_dir = "");

// Throws std::invalid_argument naming the first unsupported feature of `config`, if any.
void check_supported(const sim::RunConfig& config, std::uint64_t seed);
// The same for `server = "serve"`: single nodes only, restarts without data.
void check_servable(const sim::RunConfig& config, std::uint64_t seed);

}  // namespace lockcheck::redis_backend
