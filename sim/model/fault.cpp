#include "model/fault.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>
#include <utility>

namespace lockcheck::sim {
namespace {

using enum FaultNeeds;
using enum FaultLane;
using enum LimitFamily;

constexpr TheoryLimit kNoLimit{};
constexpr TheoryLimit kFailover{replication_loss, "a failover promoted a replica the grant had not reached (asynchronous replication, F5)", "F5"};
constexpr TheoryLimit kSplitBrain{replication_loss, "a split brain let a cut-off master and a promoted replica both grant (F6)", "F6"};
constexpr TheoryLimit kRestartWithoutGrant{replication_loss, "a node restarted without the grant (no fsync of it, F10)", "F10"};
constexpr TheoryLimit kNodeClockAhead{early_expiry, "a node's clock jumped ahead and expired the key early (F7, F9)", "F7, F9"};
constexpr TheoryLimit kNodeClockBack{late_expiry, "a node's clock stepped back and the key outlived its TTL (S7)", "S7"};
constexpr TheoryLimit kNodeClockFast{early_expiry, "a node's clock ran fast and expired the key early (F12)", "F12"};
constexpr TheoryLimit kNodeClockSlow{late_expiry, "a node's clock ran slow and the key outlived its TTL (S7)", "S7"};
constexpr TheoryLimit kPausedHolder{late_holder, "a holder was paused past its validity and went on (Kleppmann's case, F4; only fencing at the resource helps)", "F4"};

// One row per kind, in the enum's order (checked below). Columns: kind, name, fields, needs, ended_by,
// follow_up, on_redis_server, on_serve, lasting, lane, limit, limit_back.
constexpr FaultKindRow kKinds[] = {
    {FaultKind::pause, "pause", {.process = true, .duration = true}, nothing, std::nullopt, false, true, true, true, client, kPausedHolder, kPausedHolder},
    {FaultKind::crash, "crash", {.process = true}, nothing, FaultKind::restart, false, true, true, true, client, kNoLimit, kNoLimit},
    {FaultKind::restart, "restart", {.process = true}, nothing, std::nullopt, true, true, true, false, client, kNoLimit, kNoLimit},
    {FaultKind::client_clock_jump, "client_clock_jump", {.process = true, .delta = true}, nothing, std::nullopt, false, true, true, true, client, kNoLimit, kNoLimit},
    {FaultKind::client_clock_drift, "client_clock_drift", {.process = true, .drift = true}, nothing, std::nullopt, false, true, true, true, client, kNoLimit, kNoLimit},
    {FaultKind::node_clock_jump, "node_clock_jump", {.node = true, .delta = true}, nothing, std::nullopt, false, true, true, true, node, kNodeClockAhead, kNodeClockBack},
    {FaultKind::node_clock_drift, "node_clock_drift", {.node = true, .drift = true}, nothing, std::nullopt, false, true, true, true, node, kNodeClockFast, kNodeClockSlow},
    {FaultKind::node_crash, "node_crash", {.node = true}, nothing, FaultKind::node_restart, false, true, true, true, node, kNoLimit, kNoLimit},
    {FaultKind::node_restart, "node_restart", {.node = true, .mode = true}, nothing, std::nullopt, true, true, true, false, node, kRestartWithoutGrant, kRestartWithoutGrant},
    {FaultKind::failover, "failover", {.node = true}, replica, std::nullopt, false, true, false, false, node, kFailover, kFailover},
    {FaultKind::partition, "partition", {.process = true, .node = true}, nothing, FaultKind::heal, false, true, true, true, client, kNoLimit, kNoLimit},
    {FaultKind::heal, "heal", {}, nothing, std::nullopt, true, true, true, false, global, kNoLimit, kNoLimit},
    {FaultKind::loss, "loss", {.loss = true}, nothing, FaultKind::loss, false, true, true, true, global, kNoLimit, kNoLimit},
    {FaultKind::slow_node, "slow_node", {.node = true, .duration = true}, nothing, FaultKind::slow_node, false, true, true, true, node, kNoLimit, kNoLimit},
    {FaultKind::evict, "evict", {.node = true, .evict_target = true}, eviction_policy, std::nullopt, false, false, false, true, node, kNoLimit, kNoLimit},
    {FaultKind::replica_partition, "replica_partition", {.node = true}, replica, FaultKind::heal, false, false, false, true, node, kNoLimit, kNoLimit},
    {FaultKind::slot_migration, "slot_migration", {.node = true, .duration = true}, two_shards, std::nullopt, false, true, false, false, node, kNoLimit, kNoLimit},
    {FaultKind::split_brain, "split_brain", {.process = true, .node = true}, cluster_or_sentinel, FaultKind::heal, false, true, false, true, node, kSplitBrain, kSplitBrain},
};
static_assert(std::size(kKinds) == kFaultKinds.size());

// Each row sits at its enum value: row() indexes the table by it.
constexpr bool rows_in_enum_order() {
  for (std::size_t i = 0; i < std::size(kKinds); ++i) {
    if (static_cast<std::size_t>(kKinds[i].kind) != i || kFaultKinds[i] != kKinds[i].kind) return false;
  }
  return true;
}
static_assert(rows_in_enum_order(), "kKinds must list every FaultKind once, in the enum's order");

const FaultKindRow& row(FaultKind kind) { return kKinds[static_cast<std::size_t>(kind)]; }

constexpr std::pair<FaultFollowUp, std::string_view> kFollowUps[] = {
    {FaultFollowUp::resume, "resume"},
    {FaultFollowUp::slot_migrated, "slot_migrated"},
    {FaultFollowUp::rejoin, "rejoin"},
    {FaultFollowUp::sentinel_failover, "sentinel_failover"}};

}  // namespace

std::string_view to_string(FaultKind kind) { return row(kind).name; }

std::optional<FaultKind> fault_kind_named(std::string_view name) {
  const auto* found = std::find_if(std::begin(kKinds), std::end(kKinds), [&](const FaultKindRow& r) { return r.name == name; });
  if (found == std::end(kKinds)) return std::nullopt;
  return found->kind;
}

FaultFields fields_of(FaultKind kind) { return row(kind).fields; }

const FaultKindRow& fault_row(FaultKind kind) { return row(kind); }

std::vector<FaultKind> kinds_ended_by(FaultKind follow_up) {
  std::vector<FaultKind> ended;
  if (!row(follow_up).follow_up) return ended;
  for (const FaultKindRow& kind : kKinds) {
    if (kind.ended_by == follow_up) ended.push_back(kind.kind);
  }
  return ended;
}

std::optional<TheoryLimit> theory_limit_of(const FaultSpec& fault) {
  const FaultKindRow& kind = row(fault.kind);
  if (fault.kind == FaultKind::node_restart && fault.mode == RestartMode::kept) return std::nullopt;
  const bool back = fault.delta_us < 0 || fault.drift_ppm < 0;
  const TheoryLimit& limit = back ? kind.limit_back : kind.limit;
  // A clock that did not move stands for nothing.
  if ((kind.fields.delta && fault.delta_us == 0) || (kind.fields.drift && fault.drift_ppm == 0)) return std::nullopt;
  if (limit.family == LimitFamily::none) return std::nullopt;
  return limit;
}

std::string_view to_string(FaultFollowUp follow_up) {
  for (const auto& [value, name] : kFollowUps) {
    if (value == follow_up) return name;
  }
  return "none";
}

std::optional<FaultFollowUp> fault_follow_up_named(std::string_view name) {
  for (const auto& [value, spelled] : kFollowUps) {
    if (spelled == name) return value;
  }
  return std::nullopt;
}

std::string_view to_string(RestartMode mode) {
  static constexpr std::string_view kNames[] = {"kept", "lost", "aof_everysec"};
  return kNames[static_cast<std::size_t>(mode)];
}

std::string_view to_string(EvictTarget target) { return target == EvictTarget::lock ? "lock" : "any"; }

namespace {

// The fields `fault` reads, each as its scenario key and value (whole milliseconds where the key says so).
struct Field {
  std::string_view key;
  std::string value;
};

std::vector<Field> fields_given(const FaultSpec& fault) {
  const FaultFields fields = fields_of(fault.kind);
  std::vector<Field> out;
  if (fields.process) out.push_back({"process", std::to_string(fault.process)});
  if (fields.node) out.push_back({"node", std::to_string(fault.node)});
  if (fields.duration) out.push_back({"duration_ms", std::to_string(fault.duration_us / 1000)});
  if (fields.delta) out.push_back({"delta_ms", std::to_string(fault.delta_us / 1000)});
  if (fields.drift) out.push_back({"drift_ppm", std::to_string(fault.drift_ppm)});
  if (fields.mode) out.push_back({"mode", fmt::format("\"{}\"", to_string(fault.mode))});
  if (fields.loss) {
    out.push_back({"request_loss_ppm", std::to_string(fault.request_loss_ppm)});
    out.push_back({"reply_loss_ppm", std::to_string(fault.reply_loss_ppm)});
  }
  if (fields.evict_target) out.push_back({"target", fmt::format("\"{}\"", to_string(fault.evict_target))});
  return out;
}

}  // namespace

std::string describe(const FaultSpec& fault) {
  std::string text = fmt::format("t={}ms {}", fault.at_us / 1000, to_string(fault.kind));
  for (const Field& field : fields_given(fault)) text += fmt::format(" {}={}", field.key, field.value);
  return text;
}

std::string to_toml(const FaultSpec& fault) {
  std::string text = fmt::format("[[faults]]\nat_ms = {}\nkind = \"{}\"\n", fault.at_us / 1000, to_string(fault.kind));
  for (const Field& field : fields_given(fault)) text += fmt::format("{} = {}\n", field.key, field.value);
  return text;
}

}  // namespace lockcheck::sim
