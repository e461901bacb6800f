#pragma once
// The simulated Redis Cluster: who serves which hash slot, as the cluster's majority knows it, and each
// node's own view of that (mock::ClusterView). Clients reach the cluster through the library's ClusterPort
// over their SimPort (every node is a service of its own), so MOVED, refreshes after a failover and
// CROSSSLOT happen as they would against redis-server. PUBLISH reaches every node, as the cluster bus does.
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "model/run_config.hpp"
#include "model/history.hpp"
#include "lockcheck/cluster_port.hpp"

namespace lockcheck::mock {
struct ClusterView;
}  // namespace lockcheck::mock

namespace lockcheck::sim {

class SimNode;

class ClusterTopology {
 public:
  // Gives every node its view and its share of the cluster bus.
  ClusterTopology(const ClusterConfig& config, std::vector<std::unique_ptr<SimNode>>& nodes);

  // "host:port" of node i, as CLUSTER SLOTS and MOVED name it.
  const std::vector<std::string>& addresses() const { return addresses_; }
  // A new client-side ClusterPort over `nodes` (a process's SimPort) that waits on `clock` (the process's);
  // owned here, as ports outlive locks.
  Port& make_port(Port& nodes, Clock& clock);
  // Replica `promoted` takes over the slots of `old_master`, whose shard's other replicas now follow it.
  // With `old_master_isolated` the old master does not hear of it: it keeps its old view, marked down
  // (CLUSTERDOWN: it lost the majority), until rejoin().
  void failover(int old_master, int promoted, bool old_master_isolated = false);
  bool isolated(int node) const { return isolated_.count(node) != 0; }
  // A master just restarted starts with its cluster state FAIL (CLUSTERDOWN to every keyed command) until
  // writable() ends it: Redis's CLUSTER_WRITABLE_DELAY. Meanwhile it keeps no view of its own past the down
  // flag; the cluster's changes reach it at writable().
  void hold_down_after_start(int node);
  void writable(int node);
  // The master `node` replicates in the cluster's view (-1 for a master).
  int master_of(int node) const;
  // A failed old master (isolated, or restarted after its failover) reaches the majority again and takes the
  // cluster's view: it is a replica now, no longer flagged fail.
  void rejoin(int node);
  // Slot migration in three steps, as redis-cli --cluster reshard does: CLUSTER SETSLOT IMPORTING on the
  // target and MIGRATING on the owner; MIGRATE of the slot's keys (keys already moved are asked for at the
  // target with -ASK); CLUSTER SETSLOT NODE on every node (then -MOVED). Each step returns the node(s) whose
  // data changed, or false when the slot is not (or no longer) migrating.
  int owner_of(int slot) const;
  // Whether `slot` is between begin_migration() and finish_migration().
  bool migrating(int slot) const;
  void begin_migration(int slot, int target);
  bool move_keys(int slot, int& from, int& to);
  bool finish_migration(int slot);
  // The history meta's description of the topology (shards and which node serves which slots).
  Json meta() const;

 private:
  void share_view();

  std::vector<std::unique_ptr<SimNode>>& nodes_;
  std::shared_ptr<const mock::ClusterView> view_;
  std::vector<std::string> addresses_;
  std::vector<std::unique_ptr<ClusterPort>> ports_;
  std::set<int> isolated_;
  std::set<int> starting_;  // restarted masters still within their writable delay
};

}  // namespace lockcheck::sim
