// The faults a scenario injects: a fixed schedule ([[faults]]) and random rates ([nemesis]). Each fault kind
// is checked for the fields the simulator reads for it, because a missing field would silently default to
// process/node -1 or a zero duration and the scenario would test nothing.
#include <algorithm>

#include <fmt/format.h>

#include "scenario/readers.hpp"

namespace lockcheck::sim::scenario_detail {
namespace {

// The kinds World::apply knows, in the order of sim/README.md.
constexpr std::string_view kKindNames[] = {
    "pause",       "crash",        "restart",  "client_clock_jump", "client_clock_drift",
    "node_clock_jump", "node_clock_drift", "node_crash", "node_restart", "failover",
    "partition",   "heal",         "loss",     "slow_node",         "evict",
    "replica_partition", "slot_migration", "split_brain",
};

struct KindNeeds {
  std::string_view kind;
  std::string_view needs[2];  // "" = unused slot
  bool either = false;        // one of the two suffices (loss)
};

constexpr KindNeeds kNeeds[] = {
    {"pause", {"process", "duration_ms"}},
    {"crash", {"process", ""}},
    {"restart", {"process", ""}},
    {"client_clock_jump", {"process", "delta_ms"}},
    {"client_clock_drift", {"process", "drift_ppm"}},
    {"node_clock_jump", {"node", "delta_ms"}},
    {"node_clock_drift", {"node", "drift_ppm"}},
    {"node_crash", {"node", ""}},
    {"node_restart", {"node", ""}},
    {"failover", {"node", ""}},
    {"partition", {"process", "node"}},
    {"heal", {"", ""}},
    {"loss", {"request_loss_ppm", "reply_loss_ppm"}, true},
    {"slow_node", {"node", "duration_ms"}},
    {"evict", {"node", ""}},
    {"replica_partition", {"node", ""}},
    {"slot_migration", {"node", "duration_ms"}},
    {"split_brain", {"node", "process"}},
};

void require_fields(const Section& fault, const std::string& kind) {
  const auto* needs = std::find_if(std::begin(kNeeds), std::end(kNeeds),
                                   [&](const KindNeeds& entry) { return entry.kind == kind; });
  if (needs == std::end(kNeeds)) return;
  if (needs->either) {
    if (!fault.has(needs->needs[0]) && !fault.has(needs->needs[1])) {
      fault.fail_here(fmt::format("[[faults]] kind \"{}\" needs {} or {}", kind, needs->needs[0], needs->needs[1]));
    }
    return;
  }
  for (std::string_view field : needs->needs) {
    if (!field.empty() && !fault.has(field)) {
      fault.fail_here(fmt::format("[[faults]] kind \"{}\" needs {}", kind, field));
    }
  }
}

RestartMode restart_mode(const std::string& text) {
  if (text == "lost") return RestartMode::lost;
  if (text == "aof_everysec") return RestartMode::aof_everysec;
  return RestartMode::kept;
}

FaultSpec read_fault(const Section& fault, const SimConfig& config) {
  fault.allow_only({"at_ms", "kind", "process", "node", "duration_ms", "delta_ms", "drift_ppm", "mode",
                    "request_loss_ppm", "reply_loss_ppm", "target"});
  if (!fault.has("kind")) fault.fail_here("[[faults]] needs kind");
  if (!fault.has("at_ms")) fault.fail_here("[[faults]] needs at_ms (when the fault happens)");
  FaultSpec out;
  out.kind = *fault.choice("kind", kKindNames);
  require_fields(fault, out.kind);
  // A fault after the end never fires: a scenario that expects it to matter would pass vacuously.
  const std::int64_t end_ms = config.duration_us / 1000;
  if (auto at = fault.integer("at_ms", 0, kMaxMillis)) {
    if (*at > end_ms) {
      fault.fail_at("at_ms", fmt::format("[[faults]] at_ms ({}) is after the end of the run (duration_ms = {})", *at,
                                         end_ms));
    }
    out.at_us = *at * 1000;
  }
  fault.read_integer("process", out.process, 0, static_cast<std::int64_t>(config.clients.size()) - 1);
  fault.read_integer("node", out.node, 0, static_cast<std::int64_t>(config.nodes.size()) - 1);
  fault.read_millis("duration_ms", out.duration_us, 0, kMaxMillis);
  fault.read_millis("delta_ms", out.delta_us, -kMaxMillis, kMaxMillis);
  fault.read_integer("drift_ppm", out.drift_ppm, kMinDriftPpm, kMaxPpm);
  if (auto mode = fault.choice("mode", {"kept", "lost", "aof_everysec"})) out.mode = restart_mode(*mode);
  fault.read_integer("request_loss_ppm", out.request_loss_ppm, 0, kMaxPpm);
  fault.read_integer("reply_loss_ppm", out.reply_loss_ppm, 0, kMaxPpm);
  if (auto target = fault.choice("target", {"any", "lock"})) {
    if (out.kind != "evict") fault.fail_at("target", "[[faults]] target is for kind \"evict\" (which key it evicts)");
    out.evict_target = *target;
  }
  // Promoting a node that starts as a master does nothing in the simulator: almost surely a wrong index.
  if (out.kind == "failover" && config.nodes[static_cast<std::size_t>(out.node)].replica_of < 0) {
    fault.fail_at("node", fmt::format("[[faults]] failover node {} is a master; failover promotes a replica "
                                      "(a [[nodes]] entry with replica_of)",
                                      out.node));
  }
  if (out.kind == "replica_partition" && config.nodes[static_cast<std::size_t>(out.node)].replica_of < 0) {
    fault.fail_at("node", fmt::format("[[faults]] replica_partition node {} is a master; it cuts a replica's "
                                      "replication link (a [[nodes]] entry with replica_of)",
                                      out.node));
  }
  if (out.kind == "slot_migration" && config.cluster.shards == 0) {
    fault.fail_at("kind", "[[faults]] slot_migration is a cluster fault: it needs a [cluster]");
  }
  if (out.kind == "split_brain" && config.cluster.shards == 0 && config.sentinel.sentinels == 0) {
    fault.fail_at("kind", "[[faults]] split_brain needs a [cluster] or a [sentinel]");
  }
  // A sentinel deployment's replica becomes its master after a failover: a split_brain may name it (it cuts
  // the node off only while the sentinels have it master).
  const bool sentinel_split = out.kind == "split_brain" && config.sentinel.sentinels > 0;
  if ((out.kind == "slot_migration" || out.kind == "split_brain") && !sentinel_split &&
      config.nodes[static_cast<std::size_t>(out.node)].replica_of >= 0) {
    fault.fail_at("node", fmt::format("[[faults]] {} node {} is a replica; it names a master (a cluster's nodes "
                                      "0 .. shards-1)",
                                      out.kind, out.node));
  }
  return out;
}

}  // namespace

void read_faults(const Section& top, SimConfig& config) {
  config.faults.clear();
  // File order is kept: faults at the same time apply in the order written.
  for (const Section& fault : top.array_of_tables("faults")) config.faults.push_back(read_fault(fault, config));
}

void read_nemesis(const Section& top, NemesisConfig& out) {
  const auto nemesis = top.table("nemesis");
  if (!nemesis) return;
  nemesis->allow_only({"pause_every_ms", "pause_min_ms", "pause_max_ms", "crash_every_ms", "restart_after_ms",
                       "partition_every_ms", "partition_min_ms", "partition_max_ms", "node_clock_jump_every_ms",
                       "node_clock_jump_max_ms", "node_crash_every_ms", "node_restart_after_ms", "restart_mode"});
  const auto millis = [&](std::string_view key, std::int64_t& field_us) {
    nemesis->read_millis(key, field_us, 0, kMaxMillis);
  };
  millis("pause_every_ms", out.pause_every_us);
  millis("pause_min_ms", out.pause_min_us);
  millis("pause_max_ms", out.pause_max_us);
  nemesis->require_order("pause_min_ms", out.pause_min_us, "pause_max_ms", out.pause_max_us, 1000);
  millis("crash_every_ms", out.crash_every_us);
  millis("restart_after_ms", out.restart_after_us);
  millis("partition_every_ms", out.partition_every_us);
  millis("partition_min_ms", out.partition_min_us);
  millis("partition_max_ms", out.partition_max_us);
  nemesis->require_order("partition_min_ms", out.partition_min_us, "partition_max_ms", out.partition_max_us, 1000);
  millis("node_clock_jump_every_ms", out.node_clock_jump_every_us);
  millis("node_clock_jump_max_ms", out.node_clock_jump_max_us);
  millis("node_crash_every_ms", out.node_crash_every_us);
  millis("node_restart_after_ms", out.node_restart_after_us);
  if (auto mode = nemesis->choice("restart_mode", {"kept", "lost", "aof_everysec"})) {
    out.restart_mode = restart_mode(*mode);
  }
  // A family switched on with zero-sized faults injects nothing while looking like it does.
  const auto require_size = [&](std::string_view every_key, std::int64_t every, std::string_view size_key,
                                std::int64_t size) {
    if (every > 0 && size == 0) {
      nemesis->fail_at(size_key, fmt::format("[nemesis] {} must be > 0 when {} is set", size_key, every_key));
    }
  };
  require_size("pause_every_ms", out.pause_every_us, "pause_max_ms", out.pause_max_us);
  require_size("partition_every_ms", out.partition_every_us, "partition_max_ms", out.partition_max_us);
  require_size("node_clock_jump_every_ms", out.node_clock_jump_every_us, "node_clock_jump_max_ms",
               out.node_clock_jump_max_us);
}

}  // namespace lockcheck::sim::scenario_detail
