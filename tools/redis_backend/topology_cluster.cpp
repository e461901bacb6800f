// The Topology's Redis Cluster parts (topology.hpp): forming the cluster, a shard's failover by TAKEOVER, and
// the migration of the lock key's slot.
#include <chrono>
#include <stdexcept>
#include <thread>

#include "cluster_formation.hpp"
#include "lockcheck/key_slot.hpp"
#include "redis_server.hpp"
#include "topology.hpp"

namespace lockcheck::redis_backend {

void Topology::start_cluster(const std::string& directory, const std::string& clock_shim, const std::vector<Persistence>& persistence) {
  std::vector<ClusterMember> members;
  for (std::size_t i = 0; i < replica_of_.size(); ++i) {
    // nodes.conf stays in the node's directory, so a restarted node knows the cluster (and its own identity).
    ServerSpec spec{directory + "/node-" + std::to_string(i), persistence[i], 0, clock_shim, clocks_[i]->path(), true};
    spec.cluster_bus_port = testing::find_free_port();
    spec.cluster_node_timeout_ms = config_.cluster.node_timeout_us / 1000;
    // The bus goes through a proxy in front of each node (peers dial the announced bus port at the announced
    // address), and each node dials out from an address of its own, so a split-brain can cut one node's bus
    // both ways: its own proxy drops everything, every other proxy drops what comes from its address.
    bus_links_.push_back(std::make_unique<LinkProxy>(spec.cluster_bus_port, 0));
    spec.extra_args = {"--bind-source-addr", cluster_source_address(static_cast<int>(i)), "--cluster-announce-ip", "127.0.0.1",
                       "--cluster-announce-bus-port", std::to_string(bus_links_.back()->port())};
    servers_[i] = std::make_unique<ServerProcess>(spec);
    announce_links_.push_back(std::make_unique<LinkProxy>(servers_[i]->port(), 0));
    // form_cluster sets it with CONFIG SET (the proxy needs the server's port first); a restart keeps it, as a
    // config file line would: a restarted node announcing its own port is named so in -MOVED, -ASK and CLUSTER
    // SLOTS, a port the clients do not know.
    servers_[i]->keep_across_restarts({"--cluster-announce-port", std::to_string(announce_links_.back()->port())});
    members.push_back(ClusterMember{servers_[i]->port(), bus_links_.back()->port(), announce_links_.back()->port(), replica_of_[i]});
  }
  form_cluster(members, config_.cluster);
  for (const ClusterMember& member : members) node_ids_.push_back(cluster_node_id(member.port));
  lock_slot_ = key_hash_slot(config_.workload.key);
  lock_slot_owner_ = sim::cluster_shard_of_slot(config_.cluster, lock_slot_);
}

// The replica takes the shard over without the dead master's consent (TAKEOVER: no election, a new epoch).
// Clients are kept off it until its observer listens; the other nodes learn of it by gossip, and the
// clients' ClusterPort from them (CLUSTER SLOTS after the old master refused to connect).
void Topology::cluster_failover(int replica, int old_master) {
  publish_routing({replica});
  const int port = servers_[static_cast<std::size_t>(replica)]->port();
  run_command(port, {"CLUSTER", "FAILOVER", "TAKEOVER"});
  const std::string& id = node_ids_[static_cast<std::size_t>(replica)];
  bool promoted = false;
  for (int round = 0; round < 400 && !promoted; ++round) {  // x 5 ms: 2 s bound; it takes a few ms
    promoted = run_command(port, {"ROLE"}).elements.at(0).text == "master";
    for (std::size_t other = 0; promoted && other < servers_.size(); ++other) {
      if (static_cast<int>(other) == old_master || static_cast<int>(other) == replica || replica_of_[other] >= 0) continue;
      const std::string nodes = run_command(servers_[other]->port(), {"CLUSTER", "NODES"}).text;
      const std::size_t line = nodes.find(id + " ");
      promoted = line != std::string::npos && nodes.find("master", line) < nodes.find('\n', line);
    }
    if (!promoted) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (!promoted) throw std::runtime_error("cluster failover: node " + std::to_string(replica) + " did not take over within 2 s");
  replica_of_[static_cast<std::size_t>(replica)] = -1;
  for (int& master : replica_of_) {
    if (master == old_master) master = replica;  // the cluster re-points the shard's other replicas itself
  }
  if (lock_slot_owner_ == old_master) lock_slot_owner_ = replica;
}

bool Topology::begin_slot_migration(int target, int& from) {
  from = lock_slot_owner_;
  if (migration_target_ >= 0 || from == target || replica_of_.at(static_cast<std::size_t>(target)) >= 0) return false;
  if (!servers_[static_cast<std::size_t>(target)]->up() || !servers_[static_cast<std::size_t>(from)]->up()) return false;
  migration_stopped_ = false;
  const std::string slot = std::to_string(lock_slot_);
  run_command(servers_[static_cast<std::size_t>(target)]->port(),
              {"CLUSTER", "SETSLOT", slot, "IMPORTING", node_ids_[static_cast<std::size_t>(from)]});
  run_command(servers_[static_cast<std::size_t>(from)]->port(),
              {"CLUSTER", "SETSLOT", slot, "MIGRATING", node_ids_[static_cast<std::size_t>(target)]});
  migration_target_ = target;
  return true;
}

void Topology::migrate_slot_keys() {
  if (migration_target_ < 0) return;
  // A MIGRATE that meets a node down fails, and redis-cli --cluster stops the reshard there: the keys stay with
  // their owner and the slot stays open, as the simulator's ClusterFaults::slot_migration has it.
  if (!servers_[static_cast<std::size_t>(lock_slot_owner_)]->up() || !servers_[static_cast<std::size_t>(migration_target_)]->up()) {
    migration_stopped_ = true;
    return;
  }
  const int source = servers_[static_cast<std::size_t>(lock_slot_owner_)]->port();
  const Reply keys = run_command(source, {"CLUSTER", "GETKEYSINSLOT", std::to_string(lock_slot_), "1000"});
  if (keys.elements.empty()) return;
  Command migrate = {"MIGRATE", "127.0.0.1", std::to_string(servers_[static_cast<std::size_t>(migration_target_)]->port()), "", "0", "5000", "KEYS"};
  for (const Reply& key : keys.elements) migrate.push_back(key.text);
  run_command(source, migrate);
}

bool Topology::finish_slot_migration() {
  if (migration_target_ < 0 || migration_stopped_) return false;
  if (!servers_[static_cast<std::size_t>(migration_target_)]->up()) {
    migration_stopped_ = true;  // SETSLOT NODE at the target failed: the slot stays open
    return false;
  }
  const std::string slot = std::to_string(lock_slot_);
  const std::string& id = node_ids_[static_cast<std::size_t>(migration_target_)];
  // The target first, then the old owner (which then answers -MOVED), then the other masters; gossip would
  // tell them too, but the clients should not wait for it.
  std::vector<int> order = {migration_target_, lock_slot_owner_};
  for (std::size_t node = 0; node < servers_.size(); ++node) {
    if (replica_of_[node] < 0 && static_cast<int>(node) != migration_target_ && static_cast<int>(node) != lock_slot_owner_) {
      order.push_back(static_cast<int>(node));
    }
  }
  for (int node : order) {
    // A node down learns the new owner from the target's higher epoch once it is back.
    if (servers_[static_cast<std::size_t>(node)]->up()) {
      run_command(servers_[static_cast<std::size_t>(node)]->port(), {"CLUSTER", "SETSLOT", slot, "NODE", id});
    }
  }
  lock_slot_owner_ = migration_target_;
  migration_target_ = -1;
  return true;
}

}  // namespace lockcheck::redis_backend
