#pragma once
// A run's real servers: the scenario's nodes (masters, replicas with `replicaof`, persistence chosen from the
// restarts the scenario asks for), their clocks, their observers, the routing every worker follows, and
// the node-level faults made real: crash (SIGKILL), restart with or without data, failover (the old master
// is killed, REPLICAOF NO ONE on the replica, other replicas and the clients re-pointed), server clock jumps
// and drift, and, when the scenario has link faults, a LinkProxy per client-node link for partition / heal
// (silently dropped bytes), request and reply loss, slow nodes and per-link delays.
//
// With a [cluster] the nodes form a real Redis Cluster (cluster_formation.hpp); every node is a service of
// its own and the workers' ClusterPort routes by slot over them, mapping the addresses the nodes announce
// (cluster_addresses) to their own links. A failover is CLUSTER FAILOVER TAKEOVER on the replica after the
// old master is killed; a slot migration moves the lock key's slot as redis-cli --cluster reshard does. Each
// node's cluster bus passes a LinkProxy and each node dials out from a loopback address of its own, so a
// split-brain (topology_cluster_split.cpp) cuts one master's bus both ways; the run follows the cluster's own
// promotion and the old master's rejoin.
//
// With a [sentinel] (topology_sentinel.cpp) real redis-sentinel processes (sentinel_group.hpp) watch node 0
// through a LinkProxy in front of it that its replicas replicate through too, so one proxy cuts it off from
// both; every node and every sentinel is a service of its own, and the workers' SentinelPort finds the
// master. The sentinels fail over by themselves; the run follows them (follow_sentinels) and records what
// they did: a replica promoted, an old master re-pointed as a replica (`rejoin`) and what it lost.
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "model/run_config.hpp"
#include "link_proxy.hpp"
#include "node_observer.hpp"
#include "record_sink.hpp"
#include "routing_table.hpp"
#include "sentinel_group.hpp"
#include "server_clock.hpp"
#include "server_process.hpp"

namespace lockcheck::redis_backend {

class Topology {
 public:
  // `program`: what serves each node instead of redis-server (ServerSpec::program); empty: redis-server.
  Topology(const sim::RunConfig& config, std::uint64_t seed, const std::string& directory, const std::string& clock_shim,
           const TimeBase& time, RecordSink& sink, std::vector<std::string> program = {});
  ~Topology();

  const RoutingTable& routing() const { return routing_; }
  int services() const { return static_cast<int>(service_node_.size()); }
  bool cluster() const { return config_.cluster.shards > 0; }
  bool sentinel() const { return config_.sentinel.sentinels > 0; }
  // "127.0.0.1:<port>" each cluster node announces, by node; on a [sentinel] each service's address as the
  // sentinels name it (the data nodes, then the sentinels); empty otherwise.
  std::vector<std::string> cluster_addresses() const;
  // By service, the other port the servers may name it by: a [cluster] node's own port (what it announces
  // once restarted); a [sentinel] data node's own port (INFO's tcp_port), a sentinel's announced front;
  // empty otherwise.
  std::vector<int> other_named_ports() const;

  // Starts observing every master (after the servers are up; call before clients start).
  void observe();
  void stop_observing();

  void node_crash(int node);
  // `t_us` is the fault's time: what the node lost is recorded then.
  void node_restart(int node, sim::RestartMode mode, std::int64_t t_us);
  void failover(int replica, std::int64_t t_us);
  void partition(int process, int node);
  void heal();
  void slow_node(int node, std::int64_t delay_us);
  // Request and reply loss on every client link (a link's own [[network.links]] loss still applies when higher).
  void set_loss(std::uint32_t request_ppm, std::uint32_t reply_ppm);
  void clock_jump(int node, std::int64_t delta_us);
  void clock_drift(int node, std::int64_t drift_ppm);
  int master_of(int node) const { return replica_of_.at(static_cast<std::size_t>(node)); }

  // [cluster] only. Cuts master `master` off from the cluster bus both ways, from its replicas and from every
  // client but `process`, which is cut off from every other node (topology_cluster_split.cpp); false when
  // `master` is not an observed master or a split is under way.
  bool cluster_split_brain(int master, int process);
  // While a cluster split or a crashed master is followed: records the old master's replica promoted by the
  // majority (`failover`; "from_serving": true when the old master is alive) and the old master turned
  // replica after the heal or its restart (`rejoin`, and `lost` for what it alone held).
  void follow_cluster(std::int64_t t_us);
  bool cluster_change_under_way() const { return followed_master_ >= 0; }

  // [sentinel] only. How long the sentinels took to see the replicas and each other (before the run's t=0).
  std::int64_t sentinel_formation_ms() const { return sentinel_formation_ms_; }
  // The node the run last saw the sentinels make master.
  int sentinel_master() const { return sentinel_master_; }
  // Cuts `master` (the node the sentinels last made master, while observed) off from the sentinels, its
  // replicas and every client but `process`, which is cut off from everything else (its front proxy drops
  // every byte); false when that is not the case.
  bool sentinel_split_brain(int master, int process);
  // SENTINEL FAILOVER (a clean failover: the old master stays up until the sentinels re-point it); the
  // sentinels' refusals, "" when one accepted.
  std::string sentinel_failover() const { return sentinels_->request_failover(); }
  // Asks every data node its ROLE and records what the sentinels did since: a replica turned master
  // (`failover` by the sentinels; it is observed and reachable by clients from now on) and a master turned
  // replica (`rejoin`, and what it held that the new master does not as `lost`).
  void follow_sentinels(std::int64_t t_us);

  // Slot migration of the lock key's slot to master `target`, in redis-cli's three steps: SETSLOT IMPORTING
  // on the target and MIGRATING on the owner (false when there is nothing to move: the target owns the slot
  // already or is not a master; `from` is the owner); MIGRATE of the slot's keys; SETSLOT NODE on every
  // master (false when no migration is under way).
  bool begin_slot_migration(int target, int& from);
  void migrate_slot_keys();
  bool finish_slot_migration();
  int lock_slot() const { return lock_slot_; }

  // Events on lock keys that the observers could not pin down, by reason (attribution.hpp).
  Gaps gaps() const;

 private:
  void publish_routing(const std::set<int>& blocked_nodes = {});
  LinkProxy& link(int process, int node) { return *links_.at({process, node}); }
  // REPLICAOF on `node`: NO ONE for `role` -1 (a master), else node `role`'s port.
  void take_role(std::size_t node, int role) const;
  void start_observer(int node, const std::map<std::string, KeyState>& before, std::int64_t t_us, int node_of_record,
                      bool record_losses = true);
  void record_lost(std::int64_t t_us, int node, const std::string& key, const KeyState& state);
  int endpoint_port(int endpoint) const;
  int endpoints() const { return static_cast<int>(servers_.size()) + (sentinels_ ? sentinels_->count() : 0); }
  void start_sentinels();
  void sentinel_promoted(int node, std::int64_t t_us);
  void sentinel_demoted(int node, std::int64_t t_us);
  // A replica seen promoted (by the sentinels or the cluster majority) over `old_master`: `failover`, with
  // from_serving when the old master is still up; observes `node` and re-points the shard's replicas.
  void record_promotion(int node, int old_master, const char* by, std::int64_t t_us);
  // An old master seen turned replica of `master`: `rejoin`, and what it held that `master` lacks as `lost`.
  void record_rejoin(int node, int master, std::int64_t t_us);
  static std::string cluster_source_address(int node) { return "127.0.0." + std::to_string(10 + node); }
  void wait_for_replicas();
  void start_cluster(const std::string& directory, const std::string& clock_shim, const std::vector<Persistence>& persistence);
  // [cluster] crashes (topology_cluster_crash.cpp): a master with a replica is followed until its replica is
  // promoted and it rejoins; restarted before the promotion it is a master again and no longer followed.
  void cluster_node_crashed(int node);
  void cluster_node_restarting(int node);
  // A followed old master, restarted after its failover, kept off the clients until it has rejoined (until
  // then it believes it owns its slots).
  bool held_off_until_rejoin(int node) const;
  void cluster_failover(int replica, int old_master);

  const sim::RunConfig& config_;
  const TimeBase& time_;
  RecordSink& sink_;
  std::set<std::string> keys_;
  std::vector<std::unique_ptr<ServerClock>> clocks_;
  std::vector<std::unique_ptr<ServerProcess>> servers_;
  std::vector<std::unique_ptr<NodeObserver>> observers_;
  std::vector<std::unique_ptr<LinkProxy>> replication_links_;  // by replica node; null for masters
  std::vector<std::map<std::string, KeyState>> state_at_crash_;
  std::vector<int> replica_of_;
  // A role a failover gave a node while it was down (crashed): carried out when it restarts, as the simulator's
  // down replica is promoted (or re-pointed) at once and serves so once it is back. kNoRoleChange: none; -1:
  // a master (REPLICAOF NO ONE); n: a replica of node n.
  static constexpr int kNoRoleChange = -2;
  std::vector<int> role_at_restart_;
  std::vector<int> service_node_;  // service -> node serving it
  std::map<std::pair<int, int>, std::unique_ptr<LinkProxy>> links_;  // (process, node); empty: direct links
  RoutingTable routing_;
  // A cluster: each node's announced port (a LinkProxy its replicas replicate through), its node id, and
  // who owns the lock key's slot; a migration under way has a target >= 0.
  std::vector<std::unique_ptr<LinkProxy>> announce_links_;
  // Each node's cluster bus proxy (what it announces as its bus port); the master a split cut off or a crash
  // took down (-1: none; one at a time) and its replica once promoted.
  std::vector<std::unique_ptr<LinkProxy>> bus_links_;
  int followed_master_ = -1;
  int followed_successor_ = -1;
  std::vector<std::string> node_ids_;
  int lock_slot_ = 0;
  int lock_slot_owner_ = -1;
  int migration_target_ = -1;
  bool migration_stopped_ = false;  // a step met a node down: the slot stays open (no later reshard)
  int refusing_port_ = 0;  // bound, never listening: keeps clients off a restarting node
  int refusing_fd_ = -1;
  Gaps retired_gaps_;  // of observers already stopped
  // A [sentinel]: each data node's address for the sentinels and the replicas (a split-brain partitions the
  // master's), the sentinels, and the master as the run last saw it.
  std::vector<std::unique_ptr<LinkProxy>> fronts_;
  std::unique_ptr<SentinelGroup> sentinels_;
  std::int64_t sentinel_formation_ms_ = 0;
  int sentinel_master_ = 0;
};

}  // namespace lockcheck::redis_backend
