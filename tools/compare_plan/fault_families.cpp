#include "fault_families.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "lockcheck/key_slot.hpp"
#include "lockcheck/variants/registry.hpp"

namespace lockcheck::compare {
namespace {

using sim::EvictTarget;
using sim::FaultKind;
using sim::FaultSpec;
using sim::SimConfig;

constexpr std::int64_t kMs = 1000;
// One TTL for every variant, so the columns mean the same thing in every row: "past the TTL" is 1.5-3 s.
constexpr std::int64_t kTtlMs = 1000;
constexpr std::int64_t kDurationMs = 8000;

// What a variant needs so that the comparison exercises it: its registry row's comparison workload
// (lib/lockcheck/variants/variant_table.cpp); an id without a row takes the defaults (only registered ids reach
// here: compare_plan.cpp and explore check them).
ComparisonWorkload workload_of(const std::string& variant) {
  const VariantRow* row = find_variant(variant);
  return row == nullptr ? ComparisonWorkload{} : row->comparison;
}

FaultSpec fault_at(std::int64_t at_ms, sim::FaultKind kind) {
  FaultSpec fault;
  fault.at_us = at_ms * kMs;
  fault.kind = kind;
  return fault;
}

void add_failovers(SimConfig& config) {
  // Two asynchronous replicas of master 0, promoted one after the other: each failover may lose a lock
  // that had not reached the replica yet (lag 100-200 ms against holds of 50-200 ms).
  const int first_replica = static_cast<int>(config.nodes.size());
  for (int r = 0; r < 2; ++r) {
    sim::NodeConfig replica;
    replica.replica_of = 0;
    replica.replication_lag_min_us = 100 * kMs;
    replica.replication_lag_max_us = 200 * kMs;
    config.nodes.push_back(replica);
  }
  FaultSpec first = fault_at(2500, FaultKind::failover);
  first.node = first_replica;
  FaultSpec second = fault_at(5500, FaultKind::failover);
  second.node = first_replica + 1;
  config.faults.push_back(first);
  config.faults.push_back(second);
}

void add_clock_jumps(SimConfig& config) {
  for (const std::int64_t at_ms : {1500, 3500, 5500}) {
    FaultSpec jump = fault_at(at_ms, FaultKind::node_clock_jump);
    jump.node = 0;
    jump.delta_us = 3 * kTtlMs * kMs;
    config.faults.push_back(jump);
  }
}

void add_client_clock_skew(SimConfig& config) {
  // Client 1: wall clock 5 s ahead and running 5% slow; client 2 running 5% fast.
  config.clients.at(1).clock = sim::ClockConfig{5000 * kMs, -50000};
  config.clients.at(2).clock = sim::ClockConfig{0, 50000};
}

void add_evictions(SimConfig& config) {
  for (std::int64_t at_ms = 500; at_ms < kDurationMs; at_ms += 700) {
    FaultSpec evict = fault_at(at_ms, FaultKind::evict);
    evict.node = 0;
    // The lock's own keys: bookkeeping keys a variant adds (request records) must not shield it by chance.
    evict.evict_target = EvictTarget::lock;
    config.faults.push_back(evict);
  }
}

// The cluster families' topology: three shards with an asynchronous replica each (lag 100-200 ms), node
// timeout 1.5 s. The lock is named "{lock}" so that a variant's derived keys ("{lock}:fence", ...) share its
// slot, as anyone running a lock on a cluster must name it; the lock is then served by one shard. Redlock's
// masters collapse into that one cluster: its ClusterPort is one node to it.
int make_cluster(SimConfig& config) {
  config.cluster.shards = 3;
  config.cluster.replicas_per_shard = 1;
  config.cluster.replication_lag_min_us = 100 * kMs;
  config.cluster.replication_lag_max_us = 200 * kMs;
  config.cluster.node_timeout_us = 1500 * kMs;
  config.nodes = sim::cluster_nodes(config.cluster);
  config.workload.key = "{lock}";
  return sim::cluster_shard_of_slot(config.cluster, key_hash_slot(config.workload.key));
}

void add_cluster_failover(SimConfig& config) {
  const int shard = make_cluster(config);
  FaultSpec failover = fault_at(2500, FaultKind::failover);
  failover.node = sim::cluster_replica_of_shard(config.cluster, shard);
  config.faults.push_back(failover);
}

void add_slot_migrations(SimConfig& config) {
  const int shard = make_cluster(config);
  FaultSpec first = fault_at(2000, FaultKind::slot_migration);
  first.node = (shard + 1) % config.cluster.shards;
  first.duration_us = 1000 * kMs;
  FaultSpec second = fault_at(5000, FaultKind::slot_migration);
  second.node = (shard + 2) % config.cluster.shards;
  second.duration_us = 600 * kMs;
  config.faults.push_back(first);
  config.faults.push_back(second);
}

void add_split_brain(SimConfig& config) {
  const int shard = make_cluster(config);
  FaultSpec split = fault_at(2000, FaultKind::split_brain);
  split.node = shard;
  split.process = 0;
  config.faults.push_back(split);
  config.faults.push_back(fault_at(5500, FaultKind::heal));
}

// The Sentinel split-brain: master 0 with two asynchronous replicas (lag 100-200 ms) and three sentinels
// (quorum 2, down-after 1.5 s); at 2 s the master is cut off with client 0 only. Redlock's masters collapse
// into that one deployment: its SentinelPort is one node to it.
void add_sentinel_split_brain(SimConfig& config) {
  config.sentinel.sentinels = 3;
  config.sentinel.quorum = 2;
  config.sentinel.replicas = 2;
  config.sentinel.replication_lag_min_us = 100 * kMs;
  config.sentinel.replication_lag_max_us = 200 * kMs;
  config.sentinel.down_after_us = 1500 * kMs;
  config.nodes = sim::sentinel_nodes(config.sentinel);
  FaultSpec split = fault_at(2000, FaultKind::split_brain);
  split.node = 0;
  split.process = 0;
  config.faults.push_back(split);
  config.faults.push_back(fault_at(5500, FaultKind::heal));
}

std::vector<FaultFamily> make_families() {
  std::vector<FaultFamily> families;
  families.push_back({"baseline", "no faults", "fault-free run: the lock must simply work", [](SimConfig&) {}});
  families.push_back({"pause", "client pause > TTL",
                      "a random client stops the world for 1.5-3 s (1.5-3x the TTL) about every 2 s",
                      [](SimConfig& config) {
                        config.nemesis.pause_every_us = 2000 * kMs;
                        config.nemesis.pause_min_us = 1500 * kMs;
                        config.nemesis.pause_max_us = 3000 * kMs;
                      }});
  families.push_back({"crash", "client crash",
                      "a random client crashes (no release) about every 1.5 s and restarts 0.5 s later",
                      [](SimConfig& config) {
                        config.nemesis.crash_every_us = 1500 * kMs;
                        config.nemesis.restart_after_us = 500 * kMs;
                      }});
  families.push_back({"lossy", "lossy network", "2% of requests and 2% of replies dropped; 200 ms command timeout",
                      [](SimConfig& config) {
                        config.link.request_loss_ppm = 20000;
                        config.link.reply_loss_ppm = 20000;
                        config.command_timeout_us = 200 * kMs;
                      }});
  families.push_back({"partition", "partition",
                      "a random client is cut from a random master for 0.1-1.5 s about every 2 s",
                      [](SimConfig& config) {
                        config.nemesis.partition_every_us = 2000 * kMs;
                        config.nemesis.partition_min_us = 100 * kMs;
                        config.nemesis.partition_max_us = 1500 * kMs;
                      }});
  families.push_back({"failover", "failover (async replica)",
                      "master 0 has two asynchronous replicas (lag 100-200 ms), promoted at 2.5 s and 5.5 s",
                      add_failovers});
  families.push_back({"clock-jump", "server clock jump",
                      "node 0's clock jumps forward by 3 s (3x the TTL) at 1.5 s, 3.5 s and 5.5 s", add_clock_jumps});
  families.push_back({"restart", "restart, no persistence",
                      "a random master crashes about every 1.5 s and restarts 50 ms later with its data lost",
                      [](SimConfig& config) {
                        config.nemesis.node_crash_every_us = 1500 * kMs;
                        config.nemesis.node_restart_after_us = 50 * kMs;
                        config.nemesis.restart_mode = sim::RestartMode::lost;
                      }});
  families.push_back({"client-clock", "client clock skew",
                      "client 1's wall clock is 5 s ahead and runs 5% slow; client 2's runs 5% fast",
                      add_client_clock_skew});
  families.push_back({"eviction", "eviction", "node 0 evicts one of the lock's keys every 0.7 s (its key, keys its variant derives, fenced's counter), as maxmemory with allkeys-random eventually does",
                      add_evictions});
  families.push_back({"cluster-failover", "cluster shard failover",
                      "three shards with an async replica each (lag 100-200 ms); the lock's shard fails over to its "
                      "replica at 2.5 s",
                      add_cluster_failover});
  families.push_back({"slot-migration", "cluster slot migration",
                      "three shards; the lock's slot moves to another master at 2 s (over 1 s) and to the third at "
                      "5 s (over 0.6 s): MIGRATE, -ASK, then -MOVED",
                      add_slot_migrations});
  families.push_back({"split-brain", "cluster split-brain",
                      "three shards; at 2 s the lock's master is cut off with client 0 only: it serves that side "
                      "for the 1.5 s node timeout, its replica is promoted, and it rejoins as a replica at 5.5 s",
                      add_split_brain});
  families.push_back({"sentinel-split-brain", "sentinel split-brain",
                      "a master with two async replicas and three sentinels (down-after 1.5 s); at 2 s the master "
                      "is cut off with client 0 only: it keeps granting that side, the sentinels promote a "
                      "replica, and it rejoins as a replica at 5.5 s",
                      add_sentinel_split_brain});
  return families;
}

}  // namespace

const std::vector<FaultFamily>& fault_families() {
  static const std::vector<FaultFamily> families = make_families();
  return families;
}

const FaultFamily& fault_family(const std::string& id) {
  std::string known;
  for (const FaultFamily& family : fault_families()) {
    if (family.id == id) return family;
    known += (known.empty() ? "" : ", ") + family.id;
  }
  throw std::invalid_argument(fmt::format("unknown fault family '{}'; known: {}", id, known));
}

RowVariant split_watchdog(const std::string& row) {
  static constexpr std::string_view kSuffix = "+watchdog";
  if (row.size() > kSuffix.size() && row.ends_with(kSuffix)) return {row.substr(0, row.size() - kSuffix.size()), true};
  return {row, false};
}

sim::SimConfig variant_base_config(const std::string& row) {
  const auto [variant, watchdog] = split_watchdog(row);
  ComparisonWorkload wanted = workload_of(variant);
  if (watchdog) {
    // As the `watchdog` row: holds past the TTL, so that renewal matters.
    const ComparisonWorkload renewing = workload_of("watchdog");
    wanted.hold_min_ms = renewing.hold_min_ms;
    wanted.hold_max_ms = renewing.hold_max_ms;
    wanted.wait_ms = renewing.wait_ms;
  }
  SimConfig config;
  config.variant = variant;
  config.renewal.watchdog = watchdog;
  config.lock.ttl = Millis(kTtlMs);
  config.duration_us = kDurationMs * kMs;
  config.clients = std::vector<sim::ClientConfig>(3);
  config.nodes = std::vector<sim::NodeConfig>(static_cast<std::size_t>(wanted.masters));
  for (int r = 0; r < wanted.replicas; ++r) {
    sim::NodeConfig replica;
    replica.replica_of = 0;
    config.nodes.push_back(replica);
  }
  config.workload.hold_min_us = wanted.hold_min_ms * kMs;
  config.workload.hold_max_us = wanted.hold_max_ms * kMs;
  config.workload.wait_us = wanted.wait_ms * kMs;
  config.workload.nest_every = wanted.nest_every;
  config.workload.readers_ppm = wanted.readers_ppm;
  config.workload.permits = wanted.permits;
  config.workload.fencing = wanted.fencing_on_writes ? sim::Fencing::writes : sim::Fencing::off;
  return config;
}

bool variant_needs_user_scripts(const std::string& variant) {
  const VariantRow* row = find_variant(split_watchdog(variant).id);
  return row != nullptr && row->user_scripts;
}

}  // namespace lockcheck::compare
