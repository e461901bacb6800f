#include "cell_status.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace lockcheck::reports {

Status status_of(const PropertyResult* result) {
  if (result == nullptr || result->runs == 0) return Status::not_checked;
  if (result->violated > 0) return Status::broken;
  if (result->unknown == result->runs) return Status::not_exercised;
  return Status::holds;
}

std::string_view to_string(Status status) {
  switch (status) {
    case Status::holds: return "holds";
    case Status::broken: return "broken";
    case Status::not_exercised: return "not exercised";
    case Status::not_checked: return "not checked";
  }
  return "not checked";
}

std::string property_label(std::string_view property) {
  static constexpr std::pair<std::string_view, std::string_view> kLabels[] = {
      {"mutual_exclusion_server", "server level"},
      {"mutual_exclusion_client", "client level"},
      {"mutual_exclusion_resource", "resource level"},
      {"owner_only_release", "owner-only release"},
      {"bounded_unavailability", "bounded unavailability"},
      {"reentrancy", "reentrancy"},
      {"renewal", "renewal"},
      {"fencing", "fencing"},
  };
  for (const auto& [id, label] : kLabels) {
    if (id == property) return std::string(label);
  }
  return std::string(property);
}

std::string property_title(std::string_view property) {
  for (const std::string_view level : kExclusionLevels) {
    if (level == property) return "Mutual exclusion, " + property_label(property);
  }
  return property_label(property);
}

std::vector<std::string> other_properties(const Comparison& comparison) {
  std::vector<std::string> seen;
  for (const Cell& cell : comparison.cells) {
    for (const PropertyResult& result : cell.properties) {
      const bool level = std::find(std::begin(kExclusionLevels), std::end(kExclusionLevels), result.property) !=
                         std::end(kExclusionLevels);
      if (!level && std::find(seen.begin(), seen.end(), result.property) == seen.end()) seen.push_back(result.property);
    }
  }
  sort_in_checker_order(seen);
  return seen;
}

std::size_t checker_rank(std::string_view property) {
  // properties::check_all's order, which is also the scenario files' (sim::kExpectableProperties; the
  // compare_plan unit test checks the two agree, since reports never include the simulator).
  static constexpr std::string_view kCheckerOrder[] = {
      "mutual_exclusion_server", "mutual_exclusion_client", "mutual_exclusion_resource", "owner_only_release",
      "bounded_unavailability",  "reentrancy",              "renewal",                   "fencing",
  };
  const auto* known = std::find(std::begin(kCheckerOrder), std::end(kCheckerOrder), property);
  return static_cast<std::size_t>(known - std::begin(kCheckerOrder));
}

void sort_in_checker_order(std::vector<std::string>& properties) {
  std::stable_sort(properties.begin(), properties.end(), [](const std::string& a, const std::string& b) {
    const std::size_t rank_a = checker_rank(a), rank_b = checker_rank(b);
    return rank_a != rank_b ? rank_a < rank_b : a < b;
  });
}

OthersSummary summarize_others(const Cell& cell, const std::vector<std::string>& others) {
  OthersSummary summary;
  for (const std::string& property : others) {
    const PropertyResult* result = find_property(cell, property);
    const Status status = status_of(result);
    summary.any_checked = summary.any_checked || status == Status::holds || status == Status::broken;
    if (status == Status::broken) summary.broken.push_back(result);
  }
  return summary;
}

std::string counterexample_anchor(const Cell& cell, const PropertyResult& result) {
  return anchor_of(cell.variant, cell.family, result.first_violating_seed.value_or(0));
}

const Cell* progress_cell(const Comparison& comparison, const std::string& variant) {
  if (const Cell* baseline = find_cell(comparison, variant, "baseline")) return baseline;
  if (comparison.families.empty()) return nullptr;
  return find_cell(comparison, variant, comparison.families.front().id);
}

std::string progress_heading(const Comparison& comparison) {
  const bool has_baseline = std::any_of(comparison.families.begin(), comparison.families.end(),
                                        [](const FamilyInfo& family) { return family.id == "baseline"; });
  return has_baseline ? "Progress (fault-free baseline, first seed)" : "Progress (first column, first seed)";
}

std::string rate_text(std::int64_t acquisitions, std::int64_t duration_us) {
  if (duration_us <= 0) return "-";
  const std::int64_t tenths = (acquisitions * 10'000'000 + duration_us / 2) / duration_us;
  return fmt::format("{}.{}", tenths / 10, tenths % 10);
}

std::string milliseconds_text(std::int64_t micros) {
  // Integer arithmetic, rounded half up, so no float formatting can differ between machines.
  const std::int64_t tenths = (micros + 50) / 100;
  return fmt::format("{}.{}", tenths / 10, tenths % 10);
}

}  // namespace lockcheck::reports
