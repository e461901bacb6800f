#include "sample_comparison.hpp"

#include "reports/timeline.hpp"

namespace lockcheck::reports::testing {

namespace {

PropertyResult held(const std::string& property) {
  return PropertyResult{property, 3, 0, 0, std::nullopt, {}, 0, std::nullopt, {}, {}};
}

}  // namespace

Comparison sample_comparison(const std::string& hostile_text) {
  Comparison comparison;
  comparison.command = "lockcheck compare --runs 3";
  comparison.seeds = {1, 2, 3};
  comparison.variants = {"token", "fenced"};
  comparison.workloads = {
      Workload{"token", 3, 1, 0, 1'000'000, 50'000, 200'000, 1'000, 20'000, 2'000'000, 0, 0, false, 8'000'000},
      Workload{"fenced", 3, 1, 1, 1'000'000, 500, 2'500'000, 1'000, 20'000, 2'000'000, 2, 125'000, true, 8'500'000}};
  comparison.families = {{"baseline", "no faults", "fault-free"}, {"pause", "client pause > TTL", "pauses " + hostile_text}};
  comparison.notes = {"`script` is skipped " + hostile_text};
  for (const std::string& variant : comparison.variants) {
    for (const FamilyInfo& family : comparison.families) {
      Cell cell{variant, family.id, {}, {}, 8'000'000};
      cell.progress.acquisitions = 120;
      cell.progress.acquisitions_per_second = 15;
      cell.progress.wait_p50_us = 1234;
      cell.progress.wait_p99_us = 56789;
      for (const char* property : {"mutual_exclusion_server", "mutual_exclusion_client", "mutual_exclusion_resource",
                                   "owner_only_release", "reentrancy"}) {
        cell.properties.push_back(held(property));
      }
      cell.properties.back().unknown = 3;  // reentrancy: not exercised
      // fenced under the pause: one of the three runs could not judge the resource level.
      if (variant == "fenced" && family.id == "pause") cell.properties[2].unknown = 1;
      comparison.cells.push_back(cell);
    }
  }
  // Non-gating diagnostics beside a ✓: fenced's server level under no faults (a per-node double grant in 2 of
  // its 3 runs), and its owner-only release under the pause (in the "other properties" table).
  PropertyResult& fenced_server = comparison.cells[2].properties[0];
  fenced_server.runs_with_diagnostics = 2;
  fenced_server.first_diagnostic_seed = 2;
  fenced_server.first_diagnostic_name = "per_node_double_grant";
  fenced_server.first_diagnostic = "1 time(s) one node gave the key to a second owner while the first was entitled "
                                   "there (not gating for a quorum lock); first: node 0 " + hostile_text;
  PropertyResult& fenced_release = comparison.cells[3].properties[3];
  fenced_release.runs_with_diagnostics = 1;
  fenced_release.first_diagnostic_seed = 3;
  fenced_release.first_diagnostic_name = "some_finding";
  fenced_release.first_diagnostic = "a finding " + hostile_text;

  const properties::History history = kleppmann_history();
  std::vector<properties::Verdict> violated = violated_verdicts(history);
  for (properties::Verdict& verdict : violated) verdict.cause += hostile_text;
  Cell& token_pause = comparison.cells[1];
  for (PropertyResult& result : token_pause.properties) {
    for (const properties::Verdict& verdict : violated) {
      if (verdict.property != result.property) continue;
      result.violated = 2;
      result.first_violating_seed = 3;
      result.first_violation = verdict;
    }
  }
  comparison.counterexamples.push_back(Counterexample{"token", "pause", 3, violated,
                                                      "lockcheck compare --variants token --faults pause --seed 3",
                                                      build_timeline(history, violated)});
  return comparison;
}

}  // namespace lockcheck::reports::testing
