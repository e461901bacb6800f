#pragma once
// Redis Cluster's faults in the simulated world (cluster_faults.cpp): migration of the lock's slot while clients
// use it, the split-brain of a master cut off from the majority, and the failover of a master that stays down
// past the node timeout. World composes it when the nodes form a [cluster].
#include "core/cluster_topology.hpp"
#include "core/world_parts.hpp"
#include "nemesis/nemesis.hpp"

namespace lockcheck::sim {

class ClusterFaults {
 public:
  ClusterFaults(WorldParts world, ClusterTopology& cluster) : world_(world), cluster_(cluster) {}

  // slot_migration of the workload key's slot to fault.node.
  void slot_migration(const FaultSpec& fault, FaultLine& line);
  // split_brain: master fault.node is cut off from the rest of the cluster and from every client but
  // fault.process; after the node timeout the majority promotes its replica and it refuses with CLUSTERDOWN.
  void split_brain(const FaultSpec& fault, FaultLine& line);
  // At heal, an isolated old master rejoins as a replica of the new one: what it accepted alone is lost.
  void heal();
  // node_crash: a master still down after the node timeout is failed over to a live replica (what that
  // replica lacks is lost then).
  void watch_master(int master);
  // node_restart of a master failed over while down: it loads its nodes.conf, learns that its slots have a
  // newer owner and rejoins as that node's replica. False when `node` was not failed over.
  bool restart_failed_master(int node, RestartMode mode);
  // node_restart of a master that kept its slots: CLUSTERDOWN for Redis's writable delay (2 s), then it serves.
  void hold_down_restarted_master(int node);

 private:
  SimNode& node(int id) { return world_.node(id); }

  WorldParts world_;
  ClusterTopology& cluster_;
};

}  // namespace lockcheck::sim
