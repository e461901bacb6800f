#pragma once
// The simulated Redis Cluster: who serves which hash slot, as the cluster's majority knows it, and each
// node's own view of that (mock::ClusterView). Clients reach the cluster through the library's ClusterPort
// over their SimPort (every node is a service of its own), so MOVED, refreshes after a failover and
// CROSSSLOT happen as they would against redis-server. PUBLISH reaches every node, as the cluster bus does.
#include <memory>
#include <string>
#include <vector>

#include "core/config.hpp"
#include "core/sim_node.hpp"
#include "lockcheck/cluster_port.hpp"

namespace lockcheck::sim {

class ClusterTopology {
 public:
  // Gives every node its view and its share of the cluster bus.
  ClusterTopology(const ClusterConfig& config, std::vector<std::unique_ptr<SimNode>>& nodes);

  // "host:port" of node i, as CLUSTER SLOTS and MOVED name it.
  const std::vector<std::string>& addresses() const { return addresses_; }
  // A new client-side ClusterPort over `nodes` (a process's SimPort); owned here, as ports outlive locks.
  Port& make_port(Port& nodes);
  // Replica `promoted` takes over the slots of `old_master`, whose shard's other replicas now follow it.
  void failover(int old_master, int promoted);
  // The history meta's description of the topology (shards and which node serves which slots).
  Json meta() const;

 private:
  void share_view();

  std::vector<std::unique_ptr<SimNode>>& nodes_;
  std::shared_ptr<const mock::ClusterView> view_;
  std::vector<std::string> addresses_;
  std::vector<std::unique_ptr<ClusterPort>> ports_;
};

}  // namespace lockcheck::sim
