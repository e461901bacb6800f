#pragma once
// Everything a simulated run needs besides its seed. Scenario files (scenarios/*.toml) parse into this.
#include <cstdint>
#include <string>
#include <vector>

#include "lockcheck/lock_options.hpp"
#include "lockcheck/variants/script_lock.hpp"
#include "lockcheck/variants/token_wait_lock.hpp"
#include "nemesis/fault.hpp"
#include "redis/keyspace.hpp"

namespace lockcheck::sim {

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
  mock::EvictionPolicy eviction = mock::EvictionPolicy::noeviction;
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

// What the protected resource checks of the fencing tokens it is shown (sim/core/resource.hpp).
enum class Fencing : std::uint8_t {
  off,               // no check: every write is accepted
  writes,            // a write whose token is below the highest the register has seen is rejected
  reads_and_writes,  // reads register their token too and are rejected the same way (Kleppmann's storage)
};
// "off", "writes", "reads-and-writes": the scenario files' and the history meta's spelling.
const char* to_string(Fencing fencing);

struct WorkloadConfig {
  std::string key = "lock";
  std::int64_t wait_us = 2000000;        // acquire wait budget
  std::int64_t hold_min_us = 10000;      // time inside the critical section (between read and write)
  std::int64_t hold_max_us = 50000;
  std::int64_t think_min_us = 1000;      // time between a release and the next acquire
  std::int64_t think_max_us = 20000;
  std::uint32_t max_acquires_per_client = 100000;
  Fencing fencing = Fencing::off;        // what the resource checks of fencing tokens
  // Nesting (for reentrant variants), off by default. Every `nest_every`-th successful acquire of a client
  // (1: every one) is followed by a nested acquire of the same key (with `nested_ttl_us`, or the lock's TTL
  // when 0), a hold of nested_hold_min_us .. nested_hold_max_us, and the inner release; then the outer hold,
  // write and release go on as usual. The inner hold is drawn from the workload PRNG only when nesting is on.
  std::uint32_t nest_every = 0;
  std::int64_t nested_ttl_us = 0;
  std::int64_t nested_hold_min_us = 1000;
  std::int64_t nested_hold_max_us = 10000;
  // Readers (for read-write variants), off by default. Each acquisition is a read with probability
  // readers_ppm / 1e6: acquire_shared, read the resource (no write), hold, release_shared; its op lines carry
  // "mode":"read". Drawn from the workload PRNG only when readers_ppm > 0. Reads are never nested.
  std::uint32_t readers_ppm = 0;
  // A careful holder, off by default (sim/core/careful_write.hpp). With check_lease_before_write, after the
  // hold the holder asks its lease (the library's lost() / remaining() on its own clock) and writes only when
  // more than write_latency_max_us is left; otherwise it skips the write. The write then takes
  // write_latency_min_us .. write_latency_max_us to land at the resource (a storage round trip), drawn from
  // the workload PRNG only when the maximum is non-zero; a pause can land in that await.
  bool check_lease_before_write = false;
  std::int64_t write_latency_min_us = 0;
  std::int64_t write_latency_max_us = 0;
  // Threads per client process, 1 by default. Above 1, the process's threads (coroutines) share ONE lock
  // object of the variant's public type (lockcheck/public_types.hpp: Mutex over `token`, ...), each an owner
  // of its own lease, as a service's threads share one Mutex; each runs this workload, and its op and resource
  // lines carry "thread": 1 .. N. Needs a variant with a public type; no nesting.
  std::uint32_t threads_per_process = 1;
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
};

// Background renewal of the renewing variants (watchdog, watchdog-unchecked, client-reentrant), and of any
// variant that can renew when `watchdog` wraps it in the library's WatchdogLock.
struct RenewalConfig {
  bool watchdog = false;                         // wrap the variant in a watchdog (registry.hpp)
  std::uint32_t renew_divisor = 3;               // renew every ttl / renew_divisor
  std::uint32_t max_renewals = 0;                // 0: no cap (client-reentrant: its own default, 3)
  std::int64_t max_hold_us = 3'600'000'000;      // renewal stops this long after the acquire
};

struct SimConfig {
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
  std::vector<FaultSpec> faults{};
  NemesisConfig nemesis{};
  std::int64_t duration_us = 10000000;
  std::int64_t active_expiry_interval_us = 100000;  // Redis runs its active expiry cycle at 10 Hz
  std::uint64_t max_events = 50000000;              // a runaway run stops here (reported, not hung)
};

// The services clients address: node indices that are masters at the start.
std::vector<int> master_nodes(const SimConfig& config);

// Turns the random nemesis into a fixed, sorted schedule (so a failing run can be shrunk fault by fault).
std::vector<FaultSpec> draw_nemesis_schedule(const SimConfig& config, std::uint64_t seed);

}  // namespace lockcheck::sim
