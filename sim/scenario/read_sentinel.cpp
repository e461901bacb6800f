// [sentinel]: a master, its replicas and a group of sentinels (sim/core/config.hpp's SentinelConfig). It
// replaces [[nodes]]: node 0 is the master, nodes 1 .. replicas its replicas.
#include <fmt/format.h>

#include "scenario/readers.hpp"

namespace lockcheck::sim::scenario_detail {

void read_sentinel(const Section& top, RunConfig& out) {
  const auto table = top.table("sentinel");
  if (!table) return;
  if (top.has("nodes")) {
    table->fail_here("[sentinel] builds the nodes itself (the master, then its replicas); remove the [[nodes]] entries");
  }
  if (top.has("cluster")) table->fail_here("a scenario has a [cluster] or a [sentinel], not both");
  table->allow_only({"sentinels", "quorum", "replicas", "master_name", "lag_min_ms", "lag_max_ms", "down_after_ms",
                     "min_replicas_to_write", "min_replicas_max_lag_ms", "sentinels_on_master_side",
                     "failover_timeout_ms", "parallel_syncs"});
  SentinelConfig& sentinel = out.sentinel;
  sentinel.sentinels = 3;
  table->read_integer("sentinels", sentinel.sentinels, 1, 9);
  table->read_integer("replicas", sentinel.replicas, 0, 8);
  sentinel.quorum = sentinel.sentinels / 2 + 1;
  table->read_integer("quorum", sentinel.quorum, 1, sentinel.sentinels);
  if (auto name = table->string("master_name")) {
    if (name->empty()) table->fail_at("master_name", "[sentinel] master_name must not be empty");
    sentinel.master_name = *name;
  }
  table->read_millis("lag_min_ms", sentinel.replication_lag_min_us, 0, kMaxMillis);
  table->read_millis("lag_max_ms", sentinel.replication_lag_max_us, 0, kMaxMillis);
  table->require_order("lag_min_ms", sentinel.replication_lag_min_us, "lag_max_ms", sentinel.replication_lag_max_us, 1000);
  table->read_millis("down_after_ms", sentinel.down_after_us, 1, kMaxMillis);
  table->read_integer("min_replicas_to_write", sentinel.min_replicas_to_write, 0, sentinel.replicas);
  table->read_millis("min_replicas_max_lag_ms", sentinel.min_replicas_max_lag_us, 0, kMaxMillis);
  table->read_integer("sentinels_on_master_side", sentinel.sentinels_on_master_side, 0, sentinel.sentinels);
  table->read_millis("failover_timeout_ms", sentinel.failover_timeout_us, 1, kMaxMillis);
  table->read_integer("parallel_syncs", sentinel.parallel_syncs, 1, 8);
  out.nodes = sentinel_nodes(sentinel);
}

}  // namespace lockcheck::sim::scenario_detail
