#pragma once
// What a worker process needs of the run's configuration (variant, scripts, lock options, command timeout,
// workload), written by the run to a JSON file the worker reads. The worker never re-reads the scenario file,
// so a configuration changed in memory (`--backend` overrides, a comparison's per-cell variant) is what runs.
// Keep it in step with LockOptions and WorkloadConfig: a field missing here runs with its default.
#include <string>

#include "core/config.hpp"

namespace lockcheck::redis_backend {

// Throws std::runtime_error when the file cannot be written or read.
void write_worker_config(const sim::SimConfig& config, const std::string& path);
sim::SimConfig read_worker_config(const std::string& path);

}  // namespace lockcheck::redis_backend
