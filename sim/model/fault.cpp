#include "model/fault.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace lockcheck::sim {
namespace {

struct KindRow {
  FaultKind kind;
  std::string_view name;
  FaultFields fields;
};

// One row per kind: its spelling and the fields it reads.
constexpr KindRow kKinds[] = {
    {FaultKind::pause, "pause", {.process = true, .duration = true}},
    {FaultKind::crash, "crash", {.process = true}},
    {FaultKind::restart, "restart", {.process = true}},
    {FaultKind::client_clock_jump, "client_clock_jump", {.process = true, .delta = true}},
    {FaultKind::client_clock_drift, "client_clock_drift", {.process = true, .drift = true}},
    {FaultKind::node_clock_jump, "node_clock_jump", {.node = true, .delta = true}},
    {FaultKind::node_clock_drift, "node_clock_drift", {.node = true, .drift = true}},
    {FaultKind::node_crash, "node_crash", {.node = true}},
    {FaultKind::node_restart, "node_restart", {.node = true, .mode = true}},
    {FaultKind::failover, "failover", {.node = true}},
    {FaultKind::partition, "partition", {.process = true, .node = true}},
    {FaultKind::heal, "heal", {}},
    {FaultKind::loss, "loss", {.loss = true}},
    {FaultKind::slow_node, "slow_node", {.node = true, .duration = true}},
    {FaultKind::evict, "evict", {.node = true, .evict_target = true}},
    {FaultKind::replica_partition, "replica_partition", {.node = true}},
    {FaultKind::slot_migration, "slot_migration", {.node = true, .duration = true}},
    {FaultKind::split_brain, "split_brain", {.process = true, .node = true}},
};
static_assert(std::size(kKinds) == kFaultKinds.size());

const KindRow& row(FaultKind kind) { return kKinds[static_cast<std::size_t>(kind)]; }

}  // namespace

std::string_view to_string(FaultKind kind) { return row(kind).name; }

std::optional<FaultKind> fault_kind_named(std::string_view name) {
  const auto* found = std::find_if(std::begin(kKinds), std::end(kKinds), [&](const KindRow& r) { return r.name == name; });
  if (found == std::end(kKinds)) return std::nullopt;
  return found->kind;
}

FaultFields fields_of(FaultKind kind) { return row(kind).fields; }

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
