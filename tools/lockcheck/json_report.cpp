#include "json_report.hpp"

#include <nlohmann/json.hpp>

namespace lockcheck::cli {

std::string json_report(const std::vector<ScenarioReport>& reports) {
  nlohmann::json scenarios = nlohmann::json::array();
  for (const ScenarioReport& report : reports) {
    nlohmann::json properties = nlohmann::json::object();
    for (const auto& [property, tally] : report.tallies) {
      nlohmann::json entry{{"runs", tally.runs},
                           {"violated", tally.violated},
                           {"unknown", tally.unknown},
                           {"holds", tally.runs - tally.violated - tally.unknown}};
      if (tally.first_violating_seed) {
        entry["first_violating_seed"] = *tally.first_violating_seed;
        entry["witness"] = tally.first_violation.cause;
      }
      if (tally.first_unknown_seed) {
        entry["first_unknown_seed"] = *tally.first_unknown_seed;
        entry["unknown_reason"] = tally.first_unknown_reason;
      }
      properties[property] = std::move(entry);
    }
    nlohmann::json mismatches = nlohmann::json::array();
    for (const Mismatch& mismatch : report.mismatches) {
      mismatches.push_back({{"property", mismatch.property}, {"explanation", mismatch.explanation}});
    }
    scenarios.push_back({{"name", report.scenario.name},
                         {"path", report.scenario.path},
                         {"seeds", report.seeds_run},
                         {"wall_seconds", report.wall_seconds},
                         {"properties", std::move(properties)},
                         {"mismatches", std::move(mismatches)},
                         {"hollow", report.hollow},
                         {"client_hangs", report.client_hangs},
                         {"nondeterministic", report.nondeterministic}});
  }
  return nlohmann::json{{"scenarios", std::move(scenarios)}}.dump(2) + "\n";
}

}  // namespace lockcheck::cli
