#include "model/fault.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <vector>
#include <utility>

namespace lockcheck::sim {
namespace {

constexpr std::pair<FaultFollowUp, std::string_view> kFollowUps[] = {
    {FaultFollowUp::resume, "resume"},
    {FaultFollowUp::slot_migrated, "slot_migrated"},
    {FaultFollowUp::rejoin, "rejoin"},
    {FaultFollowUp::sentinel_failover, "sentinel_failover"}};

}  // namespace

std::optional<FaultKind> fault_kind_named(std::string_view name) {
  for (const FaultKindRow& row : fault_rows::kRows) {
    if (row.name == name) return row.kind;
  }
  return std::nullopt;
}

std::vector<FaultKind> kinds_ended_by(FaultKind follow_up) {
  std::vector<FaultKind> ended;
  if (!fault_row(follow_up).follow_up) return ended;
  for (const FaultKindRow& kind : fault_rows::kRows) {
    if (kind.ended_by == follow_up) ended.push_back(kind.kind);
  }
  return ended;
}

std::optional<TheoryLimit> theory_limit_of(const FaultSpec& fault) {
  const FaultKindRow& kind = fault_row(fault.kind);
  if (kind.fields.mode && fault.mode == RestartMode::kept) return std::nullopt;  // a node_restart that kept its data
  const bool back = fault.delta_us < 0 || fault.drift_ppm < 0;
  const TheoryLimit& limit = back ? kind.limit_back : kind.limit;
  // A clock that did not move stands for nothing, nor one that drifted within the margin the limit allows.
  if (kind.fields.delta && fault.delta_us == 0) return std::nullopt;
  if (kind.fields.drift && std::llabs(fault.drift_ppm) <= limit.beyond_drift_ppm) return std::nullopt;
  if (limit.family == LimitFamily::none) return std::nullopt;
  return limit;
}

bool is_own_kind_end(const FaultSpec& fault) {
  return fault_row(fault.kind).ended_by == fault.kind && fault.request_loss_ppm == 0 && fault.reply_loss_ppm == 0 &&
         fault.duration_us == 0;
}

bool ends(const FaultSpec& later, const FaultSpec& fault) {
  const std::optional<FaultKind> ended_by = fault_row(fault.kind).ended_by;
  if (later.kind != ended_by) return false;
  const FaultFields reads = fields_of(later.kind);
  if ((reads.process && later.process != fault.process) || (reads.node && later.node != fault.node)) return false;
  return later.kind != fault.kind || is_own_kind_end(later);
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
