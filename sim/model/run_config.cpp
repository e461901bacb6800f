#include "model/run_config.hpp"

#include <algorithm>

namespace lockcheck::sim {
namespace {

constexpr int kHashSlots = 16384;  // Redis Cluster's slot count

}  // namespace

std::vector<NodeConfig> cluster_nodes(const ClusterConfig& cluster) {
  std::vector<NodeConfig> nodes(static_cast<std::size_t>(cluster.shards));
  for (int shard = 0; shard < cluster.shards; ++shard) {
    for (int replica = 0; replica < cluster.replicas_per_shard; ++replica) {
      NodeConfig node;
      node.replica_of = shard;
      node.replication_lag_min_us = cluster.replication_lag_min_us;
      node.replication_lag_max_us = cluster.replication_lag_max_us;
      nodes.push_back(node);
    }
  }
  return nodes;
}

int cluster_shard_of_slot(const ClusterConfig& cluster, int slot) {
  const int base = kHashSlots / cluster.shards, extra = kHashSlots % cluster.shards;
  // The first `extra` shards serve base + 1 slots each.
  if (slot < extra * (base + 1)) return slot / (base + 1);
  return extra + (slot - extra * (base + 1)) / base;
}

std::vector<NodeConfig> sentinel_nodes(const SentinelConfig& sentinel) {
  std::vector<NodeConfig> nodes(1);
  for (int replica = 0; replica < sentinel.replicas; ++replica) {
    NodeConfig node;
    node.replica_of = 0;
    node.replication_lag_min_us = sentinel.replication_lag_min_us;
    node.replication_lag_max_us = sentinel.replication_lag_max_us;
    nodes.push_back(node);
  }
  return nodes;
}

std::vector<int> master_nodes(const RunConfig& config) {
  std::vector<int> masters;
  for (std::size_t i = 0; i < config.nodes.size(); ++i) {
    if (config.nodes[i].replica_of < 0) masters.push_back(static_cast<int>(i));
  }
  return masters;
}

std::int64_t slowest_own_link_delay_us(const RunConfig& config, int process) {
  std::int64_t slowest_us = 0;
  for (const LinkOverride& entry : config.link_overrides) {
    if (entry.process == process) slowest_us = std::max(slowest_us, (entry.link.delay_min_us + entry.link.delay_max_us) / 2);
  }
  return slowest_us;
}

std::vector<int> replica_nodes(const RunConfig& config) {
  std::vector<int> replicas;
  for (std::size_t i = 0; i < config.nodes.size(); ++i) {
    if (config.nodes[i].replica_of >= 0) replicas.push_back(static_cast<int>(i));
  }
  return replicas;
}

bool topology_has(FaultNeeds needs, const RunConfig& config) {
  switch (needs) {
    case FaultNeeds::nothing: return true;
    case FaultNeeds::replica: return !replica_nodes(config).empty();
    case FaultNeeds::two_shards: return config.cluster.shards >= 2;
    case FaultNeeds::cluster_or_sentinel: return config.cluster.shards > 0 || config.sentinel.sentinels > 0;
    case FaultNeeds::eviction_policy:
      // Redis evicts only under maxmemory with an eviction policy; with Redis's default (noeviction) a
      // lock key is never evicted, and a deployment that configured none must not be judged under it.
      return std::any_of(config.nodes.begin(), config.nodes.end(),
                         [](const NodeConfig& node) { return node.eviction != EvictionPolicy::noeviction; });
  }
  return false;
}

}  // namespace lockcheck::sim
