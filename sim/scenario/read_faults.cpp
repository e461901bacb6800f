// The faults a scenario injects: a fixed schedule ([[faults]]) and random rates ([nemesis]). Each fault kind
// is checked for the fields the simulator reads for it, because a missing field would silently default to
// process/node -1 or a zero duration and the scenario would test nothing.
#include <algorithm>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "scenario/readers.hpp"

namespace lockcheck::sim::scenario_detail {
namespace {

// A kind's required fields (nemesis/fault.hpp's fields_of): each must be given, because a missing one
// would silently default to process/node -1 or a zero duration. `mode` and `target` have defaults.
void require_fields(const Section& fault, FaultKind kind) {
  const FaultFields fields = fields_of(kind);
  const std::string_view name = to_string(kind);
  if (fields.loss) {
    if (!fault.has("request_loss_ppm") && !fault.has("reply_loss_ppm")) {
      fault.fail_here(fmt::format("[[faults]] kind \"{}\" needs request_loss_ppm or reply_loss_ppm", name));
    }
  }
  const std::pair<bool, std::string_view> needed[] = {{fields.process, "process"}, {fields.node, "node"},
                                                      {fields.delta, "delta_ms"},   {fields.drift, "drift_ppm"},
                                                      {fields.duration, "duration_ms"}};
  for (const auto& [needs, field] : needed) {
    if (needs && !fault.has(field)) fault.fail_here(fmt::format("[[faults]] kind \"{}\" needs {}", name, field));
  }
}

RestartMode restart_mode(const std::string& text) {
  if (text == "lost") return RestartMode::lost;
  if (text == "aof_everysec") return RestartMode::aof_everysec;
  return RestartMode::kept;
}

FaultSpec read_fault(const Section& fault, const RunConfig& config) {
  fault.allow_only({"at_ms", "kind", "process", "node", "duration_ms", "delta_ms", "drift_ppm", "mode",
                    "request_loss_ppm", "reply_loss_ppm", "target"});
  if (!fault.has("kind")) fault.fail_here("[[faults]] needs kind");
  if (!fault.has("at_ms")) fault.fail_here("[[faults]] needs at_ms (when the fault happens)");
  FaultSpec out;
  static const std::vector<std::string_view> kKindNames = [] {
    std::vector<std::string_view> names;
    for (const FaultKind kind : kFaultKinds) names.push_back(to_string(kind));
    return names;
  }();
  out.kind = *fault_kind_named(*fault.choice("kind", kKindNames));
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
    if (out.kind != FaultKind::evict) fault.fail_at("target", "[[faults]] target is for kind \"evict\" (which key it evicts)");
    out.evict_target = *target == "lock" ? EvictTarget::lock : EvictTarget::any;
  }
  // Promoting a node that starts as a master does nothing in the simulator: almost surely a wrong index.
  if (out.kind == FaultKind::failover && config.nodes[static_cast<std::size_t>(out.node)].replica_of < 0) {
    fault.fail_at("node", fmt::format("[[faults]] failover node {} is a master; failover promotes a replica "
                                      "(a [[nodes]] entry with replica_of)",
                                      out.node));
  }
  if (out.kind == FaultKind::replica_partition && config.nodes[static_cast<std::size_t>(out.node)].replica_of < 0) {
    fault.fail_at("node", fmt::format("[[faults]] replica_partition node {} is a master; it cuts a replica's "
                                      "replication link (a [[nodes]] entry with replica_of)",
                                      out.node));
  }
  if (out.kind == FaultKind::slot_migration && config.cluster.shards == 0) {
    fault.fail_at("kind", "[[faults]] slot_migration is a cluster fault: it needs a [cluster]");
  }
  if (out.kind == FaultKind::split_brain && config.cluster.shards == 0 && config.sentinel.sentinels == 0) {
    fault.fail_at("kind", "[[faults]] split_brain needs a [cluster] or a [sentinel]");
  }
  // A sentinel deployment's replica becomes its master after a failover: a split_brain may name it (it cuts
  // the node off only while the sentinels have it master).
  const bool sentinel_split = out.kind == FaultKind::split_brain && config.sentinel.sentinels > 0;
  if ((out.kind == FaultKind::slot_migration || out.kind == FaultKind::split_brain) && !sentinel_split &&
      config.nodes[static_cast<std::size_t>(out.node)].replica_of >= 0) {
    fault.fail_at("node", fmt::format("[[faults]] {} node {} is a replica; it names a master (a cluster's nodes "
                                      "0 .. shards-1)",
                                      to_string(out.kind), out.node));
  }
  return out;
}

}  // namespace

void read_faults(const Section& top, RunConfig& config) {
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
