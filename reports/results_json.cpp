#include "results_json.hpp"

#include <nlohmann/json.hpp>

#include "cell_status.hpp"

namespace lockcheck::reports {
namespace {

using Json = nlohmann::ordered_json;

Json property_json(const Cell& cell, const PropertyResult& result) {
  Json out{{"status", std::string(to_string(status_of(&result)))},
           {"runs", result.runs},
           {"judged", result.judged()},
           {"violated", result.violated},
           {"unknown", result.unknown}};
  if (result.first_violating_seed) {
    out["first_violating_seed"] = *result.first_violating_seed;
    out["counterexample"] = counterexample_anchor(cell, result);
    out["summary"] = result.first_violation.summary;
    out["witnesses"] = result.first_violation.witnesses;
    out["cause"] = result.first_violation.cause;
  }
  if (result.runs_with_diagnostics > 0) {
    // Beside the status, never part of it: a non-gating finding of the checker (e.g. per-node double grants).
    out["diagnostic"] = Json{{"gating", false},
                             {"name", result.first_diagnostic_name},
                             {"runs", result.runs_with_diagnostics},
                             {"first_seed", result.first_diagnostic_seed.value_or(0)},
                             {"first", result.first_diagnostic}};
  }
  return out;
}

Json progress_json(const properties::Progress& progress) {
  return Json{{"acquisitions", progress.acquisitions},
              {"acquire_attempts", progress.acquire_attempts},
              {"acquisitions_per_second", progress.acquisitions_per_second},
              {"wait_p50_us", progress.wait_p50_us},
              {"wait_p99_us", progress.wait_p99_us},
              {"starved_processes", progress.starved_processes}};
}

}  // namespace

void to_json(nlohmann::ordered_json& out, const Workload& workload) {
  out = Json{{"variant", workload.variant},
             {"clients", workload.clients},
             {"masters", workload.masters},
             {"replicas", workload.replicas},
             {"ttl_us", workload.ttl_us},
             {"hold_min_us", workload.hold_min_us},
             {"hold_max_us", workload.hold_max_us},
             {"think_min_us", workload.think_min_us},
             {"think_max_us", workload.think_max_us},
             {"wait_us", workload.wait_us},
             {"nest_every", workload.nest_every},
             {"readers_ppm", workload.readers_ppm},
             {"fencing", workload.fencing},
             {"permits", workload.permits},
             {"duration_us", workload.duration_us}};
}

std::string results_json(const Comparison& comparison) {
  Json families = Json::array();
  for (const FamilyInfo& family : comparison.families) {
    families.push_back(Json{{"id", family.id}, {"title", family.title}, {"description", family.description}});
  }
  Json cells = Json::array();
  for (const Cell& cell : comparison.cells) {
    Json properties = Json::object();
    for (const PropertyResult& result : cell.properties) properties[result.property] = property_json(cell, result);
    cells.push_back(Json{{"variant", cell.variant},
                         {"fault", cell.family},
                         {"backend", comparison.backend},
                         {"runs", static_cast<std::int64_t>(comparison.seeds.size())},
                         {"properties", properties},
                         {"duration_us", cell.duration_us},
                         {"progress_first_seed", progress_json(cell.progress)}});
  }
  Json counterexamples = Json::array();
  for (const Counterexample& example : comparison.counterexamples) {
    Json violated = Json::array();
    for (const properties::Verdict& verdict : example.violations) violated.push_back(verdict.property);
    counterexamples.push_back(Json{{"id", anchor_of(example.variant, example.family, example.seed)},
                                   {"variant", example.variant},
                                   {"fault", example.family},
                                   {"seed", example.seed},
                                   {"violated", violated},
                                   {"replay", example.replay_command}});
  }
  const Json out{{"schema", 1},
                 {"command", comparison.command},
                 {"backend", comparison.backend},
                 {"seeds", comparison.seeds},
                 {"variants", comparison.variants},
                 {"workloads", comparison.workloads},
                 {"faults", families},
                 {"notes", comparison.notes},
                 {"cells", cells},
                 {"counterexamples", counterexamples}};
  return out.dump(1) + "\n";
}

}  // namespace lockcheck::reports
