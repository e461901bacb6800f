#pragma once
// The simulated world: scheduler, history, network, nodes, client processes and the protected resource.
// It routes each client command over the network to the node serving it, and applies faults.
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "core/blocking_pops.hpp"
#include "core/call_deadlines.hpp"
#include "core/cluster_faults.hpp"
#include "core/cluster_topology.hpp"
#include "core/connection_order.hpp"
#include "core/network.hpp"
#include "model/run_config.hpp"
#include "model/history.hpp"
#include "core/process.hpp"
#include "core/replication.hpp"
#include "core/resource.hpp"
#include "core/scheduler.hpp"
#include "core/sentinel_faults.hpp"
#include "core/sentinel_topology.hpp"
#include "core/sim_node.hpp"
#include "lockcheck/variants/watchdog_lock.hpp"
#include "nemesis/nemesis.hpp"

namespace lockcheck::sim {

class World final : public Nemesis, public ProcessHost, private ReplyPath {
 public:
  World(const RunConfig& config, std::uint64_t seed);
  ~World();

  Scheduler& scheduler() override { return scheduler_; }
  History& history() { return history_; }
  Register& resource() { return resource_; }
  const RunConfig& config() const { return config_; }
  std::size_t service_count() const override { return routing_.size(); }
  std::uint64_t connection_epoch(int process, std::size_t service) const override;
  ClientProcess& client(int id) { return *clients_.at(static_cast<std::size_t>(id)); }
  SimNode& node(int id) { return *nodes_.at(static_cast<std::size_t>(id)); }

  void send(ClientProcess& process, std::size_t service, Command command, std::shared_ptr<PendingCall> pending) override;

  // Applies one fault now, through the one dispatcher (nemesis/nemesis.hpp).
  void apply(const FaultSpec& fault) { apply_fault(fault, *this); }

  // The Nemesis (world_nemesis.cpp): what each fault does to the simulated world.
  int process_count() const override { return static_cast<int>(clients_.size()); }
  int node_count() const override { return static_cast<int>(nodes_.size()); }
  void write_fault_line(Json line) override;
  void carry_out(const FaultSpec& fault, FaultLine& line) override;

  // Runs the whole scenario: starts clients, schedules faults, runs to the end. Returns events run.
  std::uint64_t run();
  // Starts every node's periodic work (active expiry, AOF fsync): run() does, and a test driving a world by hand.
  void start_maintenance();

 private:
  struct Faults;  // what each kind of fault does to the world (world_nemesis.cpp)

  void start_client(int id);
  // What a topology's faults act on.
  WorldParts parts();
  // The Port a process's lock uses: its SimPort, or a ClusterPort over it when the nodes form a cluster.
  Port& lock_port(ClientProcess& process);
  // A renewing variant's background renewal, as renew ops in the history (sim/README.md).
  void record_renewal(ClientProcess& process, const RenewalEvent& event);
  // A node's crash count (0 for a sentinel): which of its incarnations a connection made now reaches.
  std::uint64_t incarnation_of(int node) const;
  // The connection a command was sent on: the node's incarnation then (SimNode::crashes()) and the
  // connection's number (ConnectionOrder::number).
  struct Connection {
    std::uint64_t node_incarnation = 0;
    std::uint64_t number = 0;
  };
  void deliver(int process, int node, Connection connection, const Command& command, std::shared_ptr<PendingCall> pending);
  // The client gives up on its connection to `node` (a call timed out): it reconnects for what it sends next,
  // and the node ends the old session once what was sent on it has arrived.
  // A call got no answer within the command timeout: the client drops its connection and gives up on it.
  void time_out(int process, int node, PendingCall& pending);
  void drop_connection(int process, int node);
  // Sends `reply` back over the link (unless the link drops it; the client's timeout then settles it).
  void reply_to(int process, int node, Reply&& reply, std::shared_ptr<PendingCall> pending) override;
  // The connection to `node` broke under a blocked call: the client learns it one link delay later.
  void connection_lost(int process, int node, std::shared_ptr<PendingCall> pending, std::string detail) override;
  // A PUBLISH on `node_id` reaching a subscriber session: delivered to its process over the network.
  void route_message(int node_id, std::int64_t client_id, const Reply& push);
  void schedule_maintenance(int node);
  void maintenance_tick(int node);
  // Evicts one of the lock's keys that `node` has (its key, the keys its variant derives, the state its
  // guarantee rests on), drawn at random.
  bool evict_lock_key(SimNode& node);  // false when it had none of them
  RunConfig config_;
  std::uint64_t seed_;
  Scheduler scheduler_;
  History history_;
  Register resource_;
  Network network_;
  ConnectionOrder connection_order_;  // TCP order on each process-node connection
  Prng eviction_prng_;
  std::vector<std::unique_ptr<SimNode>> nodes_;
  std::vector<std::unique_ptr<ClientProcess>> clients_;
  std::vector<int> routing_;  // service -> physical node
  std::unique_ptr<ClusterTopology> cluster_;  // set when config.cluster.shards > 0
  std::unique_ptr<ClusterFaults> cluster_faults_;
  std::unique_ptr<SentinelTopology> sentinel_;  // set when config.sentinel.sentinels > 0
  std::unique_ptr<SentinelFaults> sentinel_faults_;
  Replication replication_;  // the nodes' replication links and WAIT
  BlockingPops blocking_pops_;  // calls parked in BLPOP & co. until a late reply
  CallDeadlines call_deadlines_;  // each call's command timeout
};

// The client's whole life: acquire, read-modify-write the resource, release, think; until the run ends.
Task<void> run_workload(World& world, ClientProcess& process);

}  // namespace lockcheck::sim
