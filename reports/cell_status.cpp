#include "cell_status.hpp"
#include "model/properties.hpp"

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

std::string holds_text(const PropertyResult& result) {
  if (result.judged() == result.runs) return "✓";
  return fmt::format("✓ {}/{}", result.judged(), result.runs);
}

std::string holds_title(const PropertyResult& result) {
  if (result.judged() == result.runs) return fmt::format("held in all {} runs", result.runs);
  return fmt::format("held in the {} of {} runs that could judge it; {} could not tell", result.judged(), result.runs,
                     result.unknown);
}

namespace {

// Whole milliseconds as "200", others with one decimal ("0.5").
std::string ms_text(std::int64_t micros) {
  return micros % 1000 == 0 ? fmt::format("{}", micros / 1000) : milliseconds_text(micros);
}

std::string ms_range_text(std::int64_t min_us, std::int64_t max_us) {
  return min_us == max_us ? ms_text(min_us) : ms_text(min_us) + "–" + ms_text(max_us);
}

std::string ordinal(std::int64_t n) {
  const std::int64_t tens = n % 100, ones = n % 10;
  const char* suffix = (tens >= 11 && tens <= 13) ? "th" : ones == 1 ? "st" : ones == 2 ? "nd" : ones == 3 ? "rd" : "th";
  return fmt::format("{}{}", n, suffix);
}

// Parts per million as a percentage, "50%" or "12.5%".
std::string percent_text(std::int64_t ppm) {
  const std::int64_t tenths = (ppm + 500) / 1000;
  return tenths % 10 == 0 ? fmt::format("{}%", tenths / 10) : fmt::format("{}.{}%", tenths / 10, tenths % 10);
}

std::string count_text(std::int64_t n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

}  // namespace

std::vector<std::string> workload_headers() {
  return {"clients", "TTL (ms)", "hold (ms)", "between holds (ms)", "acquire waits up to (ms)", "nested acquire",
          "reads", "nodes", "fencing", "permits", "run (s)"};
}

std::vector<std::string> workload_cells(const Workload& workload) {
  std::string nodes = count_text(workload.masters, "master", "masters");
  if (workload.replicas > 0) nodes += ", " + count_text(workload.replicas, "replica", "replicas");
  const std::int64_t run_tenths = (workload.duration_us + 50'000) / 100'000;
  return {fmt::format("{}", workload.clients),
          ms_text(workload.ttl_us),
          ms_range_text(workload.hold_min_us, workload.hold_max_us),
          ms_range_text(workload.think_min_us, workload.think_max_us),
          ms_text(workload.wait_us),
          workload.nest_every == 0   ? std::string("–")
          : workload.nest_every == 1 ? std::string("every acquisition")
                                     : "every " + ordinal(workload.nest_every) + " acquisition",
          workload.readers_ppm == 0 ? std::string("–") : percent_text(workload.readers_ppm) + " of acquisitions",
          nodes,
          workload.fencing ? "the resource checks tokens" : "–",
          workload.permits > 1 ? fmt::format("{} (a semaphore)", workload.permits) : std::string("–"),
          run_tenths % 10 == 0 ? fmt::format("{}", run_tenths / 10) : fmt::format("{}.{}", run_tenths / 10, run_tenths % 10)};
}

std::string property_label(std::string_view property) {
  for (const sim::PropertyRow& row : sim::kProperties) {
    if (row.name == property) return std::string(row.label);
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
  // The one order of the properties (sim/model/properties.hpp), which the checkers keep.
  const auto& order = sim::kExpectableProperties;
  return static_cast<std::size_t>(std::find(order.begin(), order.end(), property) - order.begin());
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
    if (status == Status::holds && result->judged() < result->runs) summary.partly_judged.push_back(result);
  }
  return summary;
}

std::string others_held_text(const OthersSummary& summary) {
  std::string text = "✓";
  for (std::size_t i = 0; i < summary.partly_judged.size(); ++i) {
    const PropertyResult& result = *summary.partly_judged[i];
    text += fmt::format("{}{} {}/{}", i == 0 ? " " : ", ", property_label(result.property), result.judged(), result.runs);
  }
  return text;
}

std::string others_held_title(const OthersSummary& summary) {
  if (summary.partly_judged.empty()) return "each exercised property held in every run";
  std::string text = "none broke;";
  for (std::size_t i = 0; i < summary.partly_judged.size(); ++i) {
    const PropertyResult& result = *summary.partly_judged[i];
    text += fmt::format("{} {}: {}", i == 0 ? "" : ";", property_label(result.property), holds_title(result));
  }
  return text;
}

std::string family_title(const Comparison& comparison, const std::string& id) {
  for (const FamilyInfo& family : comparison.families) {
    if (family.id == id) return family.title;
  }
  return id;
}

std::vector<DiagnosedResult> diagnosed_results(const Comparison& comparison) {
  std::vector<DiagnosedResult> out;
  for (const std::string& variant : comparison.variants) {
    for (const FamilyInfo& family : comparison.families) {
      const Cell* cell = find_cell(comparison, variant, family.id);
      if (cell == nullptr) continue;
      for (const PropertyResult& result : cell->properties) {
        if (result.runs_with_diagnostics > 0) out.push_back(DiagnosedResult{cell, &result});
      }
    }
  }
  return out;
}

std::string diagnostic_mark(const PropertyResult& result) {
  if (result.runs_with_diagnostics == 0) return "";
  return fmt::format("◇ {}/{}", result.runs_with_diagnostics, result.runs);
}

std::string diagnostic_title(const PropertyResult& result) {
  return fmt::format("not gating: {} in {} of {} runs, first seed {}", result.first_diagnostic_name,
                     result.runs_with_diagnostics, result.runs, result.first_diagnostic_seed.value_or(0));
}

std::string diagnostic_anchor(const Cell& cell, const PropertyResult& result) {
  return fmt::format("diag-{}--{}--{}", cell.variant, cell.family, result.property);
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
