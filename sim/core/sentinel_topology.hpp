#pragma once
// The simulated Redis Sentinel deployment: which node the sentinels take for the master, which nodes they
// cannot reach, and their answers to clients (mock::sentinel_execute). The sentinels are endpoints of their
// own after the data nodes (endpoint nodes.size() + k is sentinel k). They act as one body, except that a
// split_brain may leave some of them on the old master's side: those keep naming it, and only the others
// vote. Clients reach the deployment through the library's
// SentinelPort over their SimPort, so discovery, ROLE checks and -READONLY after a demotion happen as they
// would against redis-sentinel. The failure detection and failover themselves are the world's
// (sentinel_faults.cpp): they need its scheduler and replication.
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "model/run_config.hpp"
#include "core/sim_node.hpp"
#include "lockcheck/sentinel_port.hpp"
#include "redis/topology/sentinel.hpp"

namespace lockcheck::sim {

class SentinelTopology {
 public:
  SentinelTopology(const SentinelConfig& config, std::vector<std::unique_ptr<SimNode>>& nodes);

  // Endpoints clients address: the data nodes, then the sentinels.
  int endpoint_count() const { return static_cast<int>(addresses_.size()); }
  bool is_sentinel(int endpoint) const { return endpoint >= static_cast<int>(nodes_.size()); }
  Reply answer(int endpoint, const Command& command) const;
  // A new client-side SentinelPort over `endpoints` (a process's SimPort); owned here, as ports outlive locks.
  Port& make_port(Port& endpoints);

  // The master as the sentinels know it, and the epoch of that knowledge (a failover increments it).
  int master() const { return master_; }
  std::int64_t epoch() const { return epoch_; }
  // The sentinels (and the rest of the majority side) cannot reach `node` until reconnect().
  void cut_off(int node) { cut_off_.insert(node); }
  bool is_cut_off(int node) const { return cut_off_.count(node) != 0; }
  // The sentinels on the other side reconnect too and learn the newer epoch.
  std::set<int> reconnect_all();
  // A split_brain leaves the last `count` sentinels on the master's side, still naming it.
  void leave_with_master(int count);
  int endpoint_of_sentinel(int sentinel) const { return static_cast<int>(nodes_.size()) + sentinel; }
  bool with_master(int sentinel) const { return sentinel >= config_.sentinels - stranded_; }
  // Whether the sentinels that can vote reach the quorum and a majority of all sentinels.
  bool can_fail_over() const;
  // Whether the sentinels see the master down (crashed, or cut off from them).
  bool master_unreachable() const;
  // The replica the sentinels promote: up, reachable, following the master, most replicated (lowest id on
  // a tie, where Redis compares run ids); -1 when there is none.
  int pick_replica() const;
  // The sentinels take `promoted` for the master from now on (a new epoch).
  void elect(int promoted);
  // Each node's ROLE and INFO replication, and READONLY on replicas, from who follows whom now.
  void assign_roles();
  // The history meta's description of the deployment.
  Json meta() const;

 private:
  mock::SentinelKnowledge knowledge(int sentinel) const;

  const SentinelConfig& config_;
  std::vector<std::unique_ptr<SimNode>>& nodes_;
  std::vector<std::string> addresses_;  // per endpoint, "host:port"
  std::vector<std::unique_ptr<SentinelPort>> ports_;
  std::set<int> cut_off_;
  int stranded_ = 0;  // sentinels on the old master's side, naming stranded_master_
  int stranded_master_ = 0;
  std::int64_t stranded_epoch_ = 0;
  int master_ = 0;
  std::int64_t epoch_ = 0;
};

}  // namespace lockcheck::sim
