#pragma once
// The parts of the simulated world that a topology's faults act on (World owns them all): what ClusterFaults
// and SentinelFaults are given instead of the whole World.
#include <memory>
#include <utility>
#include <vector>

#include "core/network.hpp"
#include "core/replication.hpp"
#include "core/scheduler.hpp"
#include "core/sim_node.hpp"
#include "model/history.hpp"
#include "model/run_config.hpp"

namespace lockcheck::sim {

struct WorldParts {
  const RunConfig& config;
  Scheduler& scheduler;
  History& history;
  Network& network;
  Replication& replication;
  const std::vector<std::unique_ptr<SimNode>>& nodes;
  int process_count = 0;

  SimNode& node(int id) const { return *nodes.at(static_cast<std::size_t>(id)); }
  void write_fault_line(const Json& line) const { history.record(scheduler.now(), "fault", line); }
};

}  // namespace lockcheck::sim
