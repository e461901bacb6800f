#include "fault_families.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "lockcheck/key_slot.hpp"
#include "lockcheck/variants/registry.hpp"

namespace lockcheck::compare {
namespace {

using sim::DrawRange;
using sim::EvictTarget;
using sim::FaultKind;
using sim::FaultRanges;
using sim::RunConfig;

constexpr std::int64_t kMs = 1000;
constexpr std::int64_t kTtlMs = sim::kBaseTtlMs;  // the rows' TTL: "past the TTL" is 1.5-3 s
constexpr std::int64_t kDurationMs = 8000;

// A range of milliseconds, in the microseconds a family's ranges (unit 1 ms) are in.
DrawRange between_ms(std::int64_t low_ms, std::int64_t high_ms) { return {low_ms * kMs, high_ms * kMs}; }
DrawRange fixed_ms(std::int64_t ms) { return {ms * kMs, ms * kMs, true}; }

// A draw of `kind` about every `every_ms`, its ranges set by `narrow`.
template <typename Narrow>
FamilyDraw every(FaultKind kind, std::int64_t every_ms, Narrow narrow) {
  FamilyDraw draw{.kind = kind, .every_ms = every_ms};
  narrow(draw);
  return draw;
}

// The lock's master, the shard's replica, the other shards' masters (FamilyNodes) in `config`'s numbers.
std::vector<int> nodes_of(FamilyNodes nodes, const RunConfig& config) {
  const bool cluster = config.cluster.shards > 0;
  const int shard = cluster ? sim::cluster_shard_of_slot(config.cluster, key_hash_slot(config.workload.key)) : 0;
  switch (nodes) {
    case FamilyNodes::any: return {};
    case FamilyNodes::lock_master: return {shard};
    case FamilyNodes::first_replica:
    case FamilyNodes::second_replica: {
      if (cluster) return {sim::cluster_replica_of_shard(config.cluster, shard)};
      std::vector<int> replicas;
      for (const int replica : sim::replica_nodes(config)) {
        if (config.nodes[static_cast<std::size_t>(replica)].replica_of == shard) replicas.push_back(replica);
      }
      // The family's own two (add_replicas appends them last), not a replica the variant's row has (token-wait's).
      const std::size_t from_end = nodes == FamilyNodes::first_replica ? 2 : 1;
      if (replicas.size() < from_end) return {};
      return {replicas[replicas.size() - from_end]};
    }
    case FamilyNodes::other_masters: {
      std::vector<int> others;
      for (const int master : sim::master_nodes(config)) {
        if (master != shard) others.push_back(master);
      }
      return others;
    }
  }
  return {};
}

void add_replicas(RunConfig& config) {
  // Two asynchronous replicas of master 0: each failover may lose a lock that had not reached the replica yet
  // (lag 100-200 ms against holds of 50-200 ms).
  for (int r = 0; r < 2; ++r) {
    sim::NodeConfig replica;
    replica.replica_of = 0;
    replica.replication_lag_min_us = 100 * kMs;
    replica.replication_lag_max_us = 200 * kMs;
    config.nodes.push_back(replica);
  }
}

// The cluster families' topology: three shards with an asynchronous replica each (lag 100-200 ms), node
// timeout 1.5 s. The lock is named "{lock}" so that a variant's derived keys ("{lock}:fence", ...) share its
// slot, as anyone running a lock on a cluster must name it; the lock is then served by one shard. Redlock's
// masters collapse into that one cluster: its ClusterPort is one node to it.
void make_cluster(RunConfig& config) {
  config.cluster.shards = 3;
  config.cluster.replicas_per_shard = 1;
  config.cluster.replication_lag_min_us = 100 * kMs;
  config.cluster.replication_lag_max_us = 200 * kMs;
  config.cluster.node_timeout_us = 1500 * kMs;
  config.nodes = sim::cluster_nodes(config.cluster);
  config.workload.key = "{lock}";
}

// The Sentinel topology: master 0 with two asynchronous replicas (lag 100-200 ms) and three sentinels (quorum
// 2, down-after 1.5 s). Redlock's masters collapse into that one deployment: its SentinelPort is one node to it.
void make_sentinel(RunConfig& config) {
  config.sentinel.sentinels = 3;
  config.sentinel.quorum = 2;
  config.sentinel.replicas = 2;
  config.sentinel.replication_lag_min_us = 100 * kMs;
  config.sentinel.replication_lag_max_us = 200 * kMs;
  config.sentinel.down_after_us = 1500 * kMs;
  config.nodes = sim::sentinel_nodes(config.sentinel);
}

void no_setup(RunConfig&) {}

// A split brain: the lock's master cut off with one drawn client once, 1-3 s in, for 3.5 s (past the 1.5 s node
// timeout or down-after, so that a replica is promoted), then healed: it rejoins as a replica.
FamilyDraw split_brain_once() {
  return every(FaultKind::split_brain, 2000, [](FamilyDraw& d) {
    d.max_count = 1;
    d.ranges.split_for = fixed_ms(3500);
    d.nodes = FamilyNodes::lock_master;
  });
}

// A drawn client's clock runs 5% fast or slow (a coin) from 0 ms.
FamilyDraw client_drift_at_start() {
  FamilyDraw draw{.kind = FaultKind::client_clock_drift, .at_ms = {0}};
  draw.ranges.drift_ppm = {50000, 50000, true};
  draw.ranges.sign_by_coin = true;
  return draw;
}

std::vector<FaultFamily> make_families() {
  std::vector<FaultFamily> families;
  families.push_back({"baseline", "no faults", "fault-free run: the lock must simply work", no_setup, {}});
  // pause, crash, partition and restart draw as a scenario file's [nemesis] does, from its sub-seeds
  // ("nemesis/pause", ...): they were that nemesis before the families were streams, and keep their draws.
  families.push_back({"pause", "client pause > TTL",
                      "a random client stops the world for 1.5-3 s (1.5-3x the TTL) about every 2 s", no_setup,
                      {every(FaultKind::pause, 2000, [](FamilyDraw& d) {
                        d.ranges.pause = between_ms(1500, 3000);
                        d.seed_name = "nemesis/pause";
                      })}});
  families.push_back({"crash", "client crash",
                      "a random client crashes (no release) about every 1.5 s and restarts 0.5 s later", no_setup,
                      {every(FaultKind::crash, 1500, [](FamilyDraw& d) {
                        d.ranges.crash_for = fixed_ms(500);
                        d.seed_name = "nemesis/crash";
                      })}});
  // The loss is a fault at 0 ms for the whole run; the 200 ms command timeout is the clients' setting, which no
  // fault kind expresses (without it a lost reply would wait for the default timeout).
  families.push_back({"lossy", "lossy network",
                      "from the start, 2% of requests and 2% of replies dropped; 200 ms command timeout",
                      [](RunConfig& config) { config.command_timeout_us = 200 * kMs; },
                      {FamilyDraw{.kind = FaultKind::loss, .at_ms = {0}, .ranges = [] {
                        FaultRanges ranges;
                        ranges.loss_ppm = {20000, 20000, true};
                        ranges.loss_for = fixed_ms(kDurationMs);
                        return ranges;
                      }()}}});
  families.push_back({"partition", "partition",
                      "a random client is cut from a random master for 0.1-1.5 s about every 2 s", no_setup,
                      {every(FaultKind::partition, 2000, [](FamilyDraw& d) {
                        d.ranges.partition_for = between_ms(100, 1500);
                        d.seed_name = "nemesis/partition";
                      })}});
  // Pinned times: these columns' verdicts rest on the moment of the failover against the workload's phase
  // (redisson-semaphore's shard failover at 2.0 s, 2.5 s and 2.55 s breaks 3, 12 and 6 runs of 20), so a drawn
  // moment only trades which runs break; pinned, each column asks one question of every variant and seed. Each
  // failover's target is still drawn by the generator, among the one replica it names.
  families.push_back({"failover", "failover (async replica)",
                      "master 0 has two asynchronous replicas (lag 100-200 ms), promoted at 2.5 s and 5.5 s",
                      add_replicas,
                      {FamilyDraw{.kind = FaultKind::failover, .at_ms = {2500}, .nodes = FamilyNodes::first_replica},
                       FamilyDraw{.kind = FaultKind::failover, .at_ms = {5500}, .nodes = FamilyNodes::second_replica}}});
  families.push_back({"clock-jump", "server clock jump",
                      "node 0's clock jumps forward by 3 s (3x the TTL) every 1.75-2.25 s", no_setup,
                      {every(FaultKind::node_clock_jump, 2000, [](FamilyDraw& d) {
                        // Nearly regular, as the jumps were when pinned at 1.5, 3.5 and 5.5 s: redisson-fair's breaks
                        // rest on the spacing (server level, 30 seeds: jumps 2 s apart break 28, 1.5 s apart 1; gaps
                        // drawn in 1-3 s, 11; in 1.75-2.25 s, 18).
                        d.jitter_ms = 250;
                        d.ranges.clock_jump = fixed_ms(3 * kTtlMs);
                        d.nodes = FamilyNodes::lock_master;
                      })}});
  families.push_back({"restart", "restart, no persistence",
                      "a random master crashes about every 1.5 s and restarts 50 ms later with its data lost", no_setup,
                      {every(FaultKind::node_crash, 1500, [](FamilyDraw& d) {
                        d.ranges.node_crash_for = fixed_ms(50);
                        d.ranges.restart_mode = sim::RestartMode::lost;
                        d.seed_name = "nemesis/node_crash";
                      })}});
  // At 0 ms, as a skew the clients start with: a jump or a drift later in the run is clock-jump's question.
  families.push_back({"client-clock", "client clock skew",
                      "from the start, a drawn client's wall clock is 5 s ahead, and twice a drawn client's clock "
                      "runs 5% fast or slow (a coin each; a client drawn twice keeps the second)",
                      no_setup,
                      {FamilyDraw{.kind = FaultKind::client_clock_jump, .at_ms = {0}, .ranges = [] {
                         FaultRanges ranges;
                         ranges.clock_jump = fixed_ms(5000);
                         return ranges;
                       }()},
                       client_drift_at_start(), client_drift_at_start()}});
  families.push_back({"eviction", "eviction",
                      "node 0 evicts one of the lock's keys about every 0.7 s (its key, keys its variant derives, "
                      "fenced's counter), as maxmemory with allkeys-random eventually does",
                      no_setup,
                      {every(FaultKind::evict, 700, [](FamilyDraw& d) {
                        // The lock's own keys: bookkeeping keys a variant adds (request records) must not shield it
                        // by chance.
                        d.ranges.evict_target = EvictTarget::lock;
                        d.nodes = FamilyNodes::lock_master;
                      })}});
  families.push_back({"cluster-failover", "cluster shard failover",
                      "three shards with an async replica each (lag 100-200 ms); the lock's shard fails over to its "
                      "replica at 2.5 s",
                      make_cluster,
                      {FamilyDraw{.kind = FaultKind::failover, .at_ms = {2500}, .nodes = FamilyNodes::first_replica}}});
  families.push_back({"slot-migration", "cluster slot migration",
                      "three shards; the lock's slot moves to another shard's master (drawn) about every 2.5 s, twice "
                      "at most, each over 0.6-1 s: MIGRATE, -ASK, then -MOVED",
                      make_cluster,
                      {every(FaultKind::slot_migration, 2500, [](FamilyDraw& d) {
                        d.max_count = 2;
                        d.ranges.migration_for = between_ms(600, 1000);
                        d.nodes = FamilyNodes::other_masters;
                      })}});
  families.push_back({"split-brain", "cluster split-brain",
                      "three shards; once, 1-3 s in, the lock's master is cut off with one drawn client: it serves "
                      "that side for the 1.5 s node timeout, its replica is promoted, and it rejoins as a replica "
                      "3.5 s later",
                      make_cluster, {split_brain_once()}});
  families.push_back({"sentinel-split-brain", "sentinel split-brain",
                      "a master with two async replicas and three sentinels (down-after 1.5 s); once, 1-3 s in, the "
                      "master is cut off with one drawn client: it keeps granting that side, the sentinels promote "
                      "a replica, and it rejoins as a replica 3.5 s later",
                      make_sentinel, {split_brain_once()}});
  return families;
}

}  // namespace

void FaultFamily::apply(RunConfig& config) const {
  setup(config);
  std::vector<std::string> names;
  for (const FamilyDraw& draw : draws) {
    sim::DrawnFaults stream;
    stream.name = draw.seed_name;
    if (stream.name.empty()) {
      const std::string base = fmt::format("{}/{}", id, sim::to_string(draw.kind));
      stream.name = base;
      // A second draw of one kind gets a sub-seed of its own: the same name would draw the same faults.
      for (int n = 2; std::find(names.begin(), names.end(), stream.name) != names.end(); ++n) stream.name = fmt::format("{}#{}", base, n);
    }
    names.push_back(stream.name);
    stream.kind = draw.kind;
    stream.every_us = draw.every_ms * kMs;
    if (draw.jitter_ms) stream.jitter_us = *draw.jitter_ms * kMs;
    stream.max_count = draw.max_count;
    for (const std::int64_t at_ms : draw.at_ms) stream.at_us.push_back(at_ms * kMs);
    stream.ranges = draw.ranges;
    stream.ranges.nodes = nodes_of(draw.nodes, config);
    config.nemesis.drawn.push_back(std::move(stream));
  }
}

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

}  // namespace lockcheck::compare
