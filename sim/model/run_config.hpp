#pragma once
// Everything a simulated run needs besides its seed. Scenario files (scenarios/*.toml) parse into this.
#include <cstdint>
#include <string>
#include <vector>

#include "lockcheck/lock_options.hpp"
#include "lockcheck/variants/script_lock.hpp"
#include "lockcheck/variants/token_wait_lock.hpp"
#include "model/fault.hpp"
#include "model/fault_ranges.hpp"
#include "model/workload_config.hpp"

namespace lockcheck::sim {

// Which key a full node evicts (its maxmemory-policy), as a scenario's [topology] names it. The simulator
// hands it to the mock's own enum (sim/core/sim_node.cpp), the redis backend to redis-server's config.
enum class EvictionPolicy : std::uint8_t { noeviction, allkeys_random, allkeys_lru, allkeys_lfu, volatile_lfu };

struct ClockConfig {
  std::int64_t wall_offset_us = 0;  // constant skew of the wall clock
  std::int64_t drift_ppm = 0;       // rate error: +10000 runs 1% fast
};

struct ClientConfig {
  ClockConfig clock;
};

struct NodeConfig {
  ClockConfig clock;
  int replica_of = -1;               // index of the master this node replicates, -1 for a master
  std::int64_t replication_lag_min_us = 1000;
  std::int64_t replication_lag_max_us = 5000;
  std::size_t maxmemory_keys = 0;    // 0 = unlimited
  EvictionPolicy eviction = EvictionPolicy::noeviction;
};

// A Redis Cluster topology ([cluster] in scenario files, sim/core/cluster_topology.hpp), off when shards == 0.
// It builds the nodes: masters 0 .. shards-1, each serving an equal range of the 16384 hash slots, then
// `replicas_per_shard` replicas of shard 0, of shard 1, ...; clients reach it through the library's
// ClusterPort.
struct ClusterConfig {
  int shards = 0;
  int replicas_per_shard = 0;
  std::int64_t replication_lag_min_us = 1000;
  std::int64_t replication_lag_max_us = 5000;
  std::int64_t node_timeout_us = 15000000;  // Redis's cluster-node-timeout default (15 s)
};

// The nodes of `cluster` in the order above (node i < shards is shard i's master).
std::vector<NodeConfig> cluster_nodes(const ClusterConfig& cluster);
// The shard whose master serves hash slot `slot` at the start: equal contiguous ranges, the remainder spread
// over the first shards, as redis-cli --cluster create splits them.
int cluster_shard_of_slot(const ClusterConfig& cluster, int slot);
// The first replica of `shard` in cluster_nodes' order.
inline int cluster_replica_of_shard(const ClusterConfig& cluster, int shard) {
  return cluster.shards + shard * cluster.replicas_per_shard;
}

// A Redis Sentinel topology ([sentinel] in scenario files, sim/core/sentinel_topology.hpp), off when
// sentinels == 0. Node 0 is the master and nodes 1 .. replicas its replicas; the sentinels are endpoints of
// their own after the nodes. Clients find the master through the library's SentinelPort. The sentinels see
// the master down once they have not reached it for down_after_us; with `quorum` of them agreeing and a
// majority of all sentinels to elect a leader, they promote the replica that has replicated most. The
// election and promotion take no time in the simulator.
struct SentinelConfig {
  int sentinels = 0;
  int replicas = 1;
  int quorum = 2;
  std::string master_name = "mymaster";
  std::int64_t replication_lag_min_us = 1000;
  std::int64_t replication_lag_max_us = 5000;
  std::int64_t down_after_us = 30000000;  // down-after-milliseconds' default (30 s)
  // The master's min-replicas-to-write / min-replicas-max-lag: with fewer than min_replicas_to_write
  // replicas heard from within max_lag it refuses writes (NOREPLICAS). 0 = off, Redis's default.
  int min_replicas_to_write = 0;
  std::int64_t min_replicas_max_lag_us = 10000000;
  // How many sentinels a split_brain leaves on the old master's side (the last ones). The rest must reach
  // the quorum and a majority of all sentinels to fail over; those on the master's side keep naming it.
  int sentinels_on_master_side = 0;
  // Sentinel's failover-timeout and parallel-syncs. The simulator's failover takes no time and re-points
  // every replica at once, so only the redis backend's real sentinels use them.
  std::int64_t failover_timeout_us = 180000000;  // Redis's default (3 min)
  int parallel_syncs = 1;
};

// The nodes of `sentinel` (node 0 the master, then its replicas).
std::vector<NodeConfig> sentinel_nodes(const SentinelConfig& sentinel);

struct LinkConfig {
  std::int64_t delay_min_us = 100;  // one way
  std::int64_t delay_max_us = 400;
  std::uint32_t request_loss_ppm = 0;
  std::uint32_t reply_loss_ppm = 0;
};

// One link (client process -> node) that differs from the default: a slow or lossy path.
struct LinkOverride {
  int process = 0;
  int node = 0;
  LinkConfig link{};
};

// A random nemesis: each kind fires as a Poisson-like process with a mean interval (0 = off), drawn from
// its own sub-seed so that enabling one kind does not change when the others fire.
struct NemesisConfig {
  std::int64_t pause_every_us = 0;
  std::int64_t pause_min_us = 0, pause_max_us = 0;
  std::int64_t crash_every_us = 0;       // a crashed client restarts after restart_after_us
  std::int64_t restart_after_us = 1000000;
  std::int64_t partition_every_us = 0;
  std::int64_t partition_min_us = 0, partition_max_us = 0;
  std::int64_t node_clock_jump_every_us = 0;
  std::int64_t node_clock_jump_max_us = 0;
  std::int64_t node_crash_every_us = 0;  // the node restarts after node_restart_after_us with restart_mode
  std::int64_t node_restart_after_us = 500000;
  RestartMode restart_mode = RestartMode::lost;
  // Streams drawn besides those five (compare's fault families): no scenario file spells them.
  std::vector<DrawnFaults> drawn;
};

// Background renewal of the renewing variants (watchdog, watchdog-unchecked, client-reentrant), and of any
// variant that can renew when `watchdog` wraps it in the library's WatchdogLock.
struct RenewalConfig {
  bool watchdog = false;                         // wrap the variant in a watchdog (registry.hpp)
  std::uint32_t renew_divisor = 3;               // renew every ttl / renew_divisor
  std::uint32_t max_renewals = 0;                // 0: no cap (client-reentrant: its own default, 3)
  std::int64_t max_hold_us = 3'600'000'000;      // renewal stops this long after the acquire
};

// An external lock client (`lockcheck judge`, tools/judge/PROTOCOL.md): a process in any language that runs
// its own lock library and answers the judge protocol. Only the real backend starts one; the simulator
// runs the library's variants in process.
struct ExternalClientConfig {
  std::vector<std::string> command;  // empty: the catalogue variant, in process
  // The keys the client's library writes, when they are not [workload] key itself (redis-semaphore's
  // "mutex:<key>"): the server-side history follows these too.
  std::vector<std::string> keys;
};

struct RunConfig {
  std::string scenario = "unnamed";
  std::string variant = "token";
  UserScripts scripts{};  // variant "script": the user's Lua sources
  TokenWaitOptions token_wait{};  // variant "token-wait": replicas to wait for, WAIT timeout
  LockOptions lock{};
  RenewalConfig renewal{};
  std::int64_t command_timeout_us = 500000;
  std::vector<ClientConfig> clients = std::vector<ClientConfig>(3);
  std::vector<NodeConfig> nodes = std::vector<NodeConfig>(1);
  ClusterConfig cluster{};  // shards > 0: `nodes` is cluster_nodes(cluster)
  SentinelConfig sentinel{};  // sentinels > 0: `nodes` is sentinel_nodes(sentinel)
  LinkConfig link{};
  std::vector<LinkOverride> link_overrides{};
  WorkloadConfig workload{};
  ExternalClientConfig external{};
  std::vector<FaultSpec> faults{};
  NemesisConfig nemesis{};
  std::int64_t duration_us = 10000000;
  std::int64_t active_expiry_interval_us = 100000;  // Redis runs its active expiry cycle at 10 Hz
  std::uint64_t max_events = 50000000;              // a runaway run stops here (reported, not hung)
};

// The services clients address: node indices that are masters at the start.
std::vector<int> master_nodes(const RunConfig& config);
// The nodes that start as replicas (replica_of >= 0), in index order.
std::vector<int> replica_nodes(const RunConfig& config);
// The one-way delay the real backend puts on `process`'s slowest link of its own (a [[network.links]] entry:
// the mean of its range, as the proxy applies it); 0 without one.
std::int64_t slowest_own_link_delay_us(const RunConfig& config, int process);

// Whether `config`'s topology has what a fault kind needs (its row's `needs`, model/fault.hpp).
bool topology_has(FaultNeeds needs, const RunConfig& config);

// Turns the random nemesis (the file's five kinds, then `drawn`) into a fixed, sorted schedule (so a failing run
// can be shrunk fault by fault).
std::vector<FaultSpec> draw_nemesis_schedule(const RunConfig& config, std::uint64_t seed);

}  // namespace lockcheck::sim
