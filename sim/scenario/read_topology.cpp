// Who takes part: the clients and their clocks, the Redis nodes (masters and replicas), and the network
// between them.
#include <fmt/format.h>

#include "scenario/readers.hpp"

namespace lockcheck::sim::scenario_detail {
namespace {

// Bounds that keep a file a test rather than a load generator; the simulator itself has no hard limit.
constexpr std::int64_t kMaxClients = 1000;
constexpr std::int64_t kMaxNodes = 64;

void read_clock(const Section& section, ClockConfig& out) {
  section.read_millis("offset_ms", out.wall_offset_us, -kMaxMillis, kMaxMillis);
  section.read_integer("drift_ppm", out.drift_ppm, kMinDriftPpm, kMaxPpm);
}

}  // namespace

void read_clients(const Section& top, std::vector<ClientConfig>& out) {
  const auto clients = top.table("clients");
  if (!clients) return;
  clients->allow_only({"count", "[[clock]]"});
  if (auto count = clients->integer("count", 1, kMaxClients)) out.assign(static_cast<std::size_t>(*count), {});
  const int count = static_cast<int>(out.size());
  std::vector<bool> seen(out.size(), false);
  for (const Section& clock : clients->array_of_tables("clock")) {
    clock.allow_only({"process", "offset_ms", "drift_ppm"});
    if (!clock.has("process")) clock.fail_here("[[clients.clock]] needs process (the client's index)");
    const auto process = static_cast<std::size_t>(*clock.integer("process", 0, count - 1));
    // Two clocks for one client would silently let the later win.
    if (seen[process]) clock.fail_at("process", fmt::format("[[clients.clock]] process {} is given twice", process));
    seen[process] = true;
    read_clock(clock, out[process].clock);
  }
}

void read_nodes(const Section& top, std::vector<NodeConfig>& out) {
  const auto nodes = top.array_of_tables("nodes");
  if (nodes.empty()) return;  // absent: RunConfig's single master
  if (static_cast<std::int64_t>(nodes.size()) > kMaxNodes) {
    nodes[kMaxNodes].fail_here(fmt::format("at most {} [[nodes]] are allowed", kMaxNodes));
  }
  out.assign(nodes.size(), {});
  const int count = static_cast<int>(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const Section& node = nodes[i];
    NodeConfig& config = out[i];
    node.allow_only({"offset_ms", "drift_ppm", "replica_of", "lag_min_ms", "lag_max_ms", "maxmemory_keys",
                     "eviction"});
    read_clock(node, config.clock);
    node.read_integer("replica_of", config.replica_of, -1, count - 1);
    if (config.replica_of == static_cast<int>(i)) {
      node.fail_at("replica_of", fmt::format("[[nodes]] node {} cannot be a replica of itself", i));
    }
    node.read_millis("lag_min_ms", config.replication_lag_min_us, 0, kMaxMillis);
    node.read_millis("lag_max_ms", config.replication_lag_max_us, 0, kMaxMillis);
    node.require_order("lag_min_ms", config.replication_lag_min_us, "lag_max_ms", config.replication_lag_max_us,
                       1000);
    node.read_integer("maxmemory_keys", config.maxmemory_keys, 0, kNoLimit);
    if (auto eviction =
            node.choice("eviction", {"noeviction", "allkeys-random", "allkeys-lru", "allkeys-lfu", "volatile-lfu"})) {
      config.eviction = *eviction == "noeviction"       ? sim::EvictionPolicy::noeviction
                        : *eviction == "allkeys-random" ? sim::EvictionPolicy::allkeys_random
                        : *eviction == "allkeys-lru"    ? sim::EvictionPolicy::allkeys_lru
                        : *eviction == "allkeys-lfu"    ? sim::EvictionPolicy::allkeys_lfu
                                                        : sim::EvictionPolicy::volatile_lfu;
    }
  }
  // Replicas of replicas are not modelled (failover re-points replicas of the old master only), so a
  // replica must follow a master; checked after all nodes are read because replica_of may point forward.
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const int master = out[i].replica_of;
    if (master >= 0 && out[static_cast<std::size_t>(master)].replica_of >= 0) {
      nodes[i].fail_at("replica_of", fmt::format("[[nodes]] node {} replicates node {}, which is itself a replica; "
                                                 "replica_of must name a master",
                                                 i, master));
    }
  }
}

namespace {

void read_link(const Section& section, LinkConfig& out) {
  section.read_integer("delay_min_us", out.delay_min_us, 0, kMaxMicros);
  section.read_integer("delay_max_us", out.delay_max_us, 0, kMaxMicros);
  section.require_order("delay_min_us", out.delay_min_us, "delay_max_us", out.delay_max_us, 1);
  section.read_integer("request_loss_ppm", out.request_loss_ppm, 0, kMaxPpm);
  section.read_integer("reply_loss_ppm", out.reply_loss_ppm, 0, kMaxPpm);
}

}  // namespace

void read_network(const Section& top, RunConfig& out) {
  const auto network = top.table("network");
  if (!network) return;
  network->allow_only({"delay_min_us", "delay_max_us", "request_loss_ppm", "reply_loss_ppm", "[[links]]"});
  read_link(*network, out.link);
  const auto clients = static_cast<std::int64_t>(out.clients.size());
  const auto nodes = static_cast<std::int64_t>(out.nodes.size());
  for (const Section& entry : network->array_of_tables("links")) {
    entry.allow_only({"process", "node", "delay_min_us", "delay_max_us", "request_loss_ppm", "reply_loss_ppm"});
    if (!entry.has("process") || !entry.has("node")) entry.fail_here("[[network.links]] needs process and node");
    LinkOverride link{static_cast<int>(*entry.integer("process", 0, clients - 1)),
                      static_cast<int>(*entry.integer("node", 0, nodes - 1)), out.link};
    read_link(entry, link.link);
    out.link_overrides.push_back(link);
  }
}

}  // namespace lockcheck::sim::scenario_detail
