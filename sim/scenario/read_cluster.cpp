// [cluster]: a Redis Cluster of `shards` masters, each with `replicas_per_shard` replicas (sim/core/config.hpp's
// ClusterConfig). It replaces [[nodes]]: node i < shards is shard i's master, the replicas follow in shard order.
#include <fmt/format.h>

#include "scenario/readers.hpp"

namespace lockcheck::sim::scenario_detail {

void read_cluster(const Section& top, RunConfig& out) {
  const auto table = top.table("cluster");
  if (!table) return;
  if (top.has("nodes")) {
    table->fail_here("[cluster] builds the nodes itself (masters, then replicas); remove the [[nodes]] entries");
  }
  table->allow_only({"shards", "replicas_per_shard", "lag_min_ms", "lag_max_ms", "node_timeout_ms"});
  ClusterConfig& cluster = out.cluster;
  cluster.shards = 3;
  table->read_integer("shards", cluster.shards, 1, 16);
  table->read_integer("replicas_per_shard", cluster.replicas_per_shard, 0, 4);
  table->read_millis("lag_min_ms", cluster.replication_lag_min_us, 0, kMaxMillis);
  table->read_millis("lag_max_ms", cluster.replication_lag_max_us, 0, kMaxMillis);
  table->require_order("lag_min_ms", cluster.replication_lag_min_us, "lag_max_ms", cluster.replication_lag_max_us, 1000);
  table->read_millis("node_timeout_ms", cluster.node_timeout_us, 1, kMaxMillis);
  out.nodes = cluster_nodes(cluster);
}

}  // namespace lockcheck::sim::scenario_detail
