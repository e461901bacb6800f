#pragma once
// Turns a selection (variants, fault families, seeds) into the scenarios `lockcheck compare` runs: one per
// (variant, family) cell, the family applied to the variant's base configuration (fault_families.hpp).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reports/comparison.hpp"
#include "scenario/scenario.hpp"

namespace lockcheck::compare {

struct CompareSelection {
  std::vector<std::string> variants;  // empty: every registered variant (script only with scripts)
  std::vector<std::string> families;  // empty: every fault family
  std::uint64_t runs = 10;            // seeds 1..runs
  std::optional<std::uint64_t> seed;  // only this seed (replaying one cell's run)
  // The `script` variant's Lua files (acquire, release, optional renew), as the user named them.
  std::vector<std::string> script_paths;
  // External lock clients (lockcheck judge), each "NAME=CMD ARGS": a row "client:NAME" on the token
  // variant's comparison workload. Real Redis only. Without --variants, only these rows run. Optional (= {}):
  // a selection written {variants, families, runs, seed, scripts} leaves them out without a warning.
  std::vector<std::string> clients = {};
  // "NAME=KEY[+KEY...]": the keys client NAME's library writes when not the lock's key (mutex:lock).
  std::vector<std::string> client_keys = {};
};

struct PlannedCell {
  std::string variant;
  std::string family;
  sim::Scenario scenario;  // named "<variant>--<family>", seeds as selected, no expectations
};

struct ComparePlan {
  std::vector<std::string> variants;
  std::vector<reports::Workload> workloads;  // one per variant: its base configuration, for the reports
  std::vector<reports::FamilyInfo> families;
  std::vector<std::uint64_t> seeds;
  std::vector<std::string> notes;  // e.g. the variants skipped, and why
  std::vector<PlannedCell> cells;  // variant-major
};

// Throws std::invalid_argument for an unknown variant or family id, `script` without scripts, or a script
// that Redis's Lua could not run (the message names the file).
ComparePlan plan_comparison(const CompareSelection& selection);

// Reads the `script` variant's files (acquire, release, optional renew) and checks each against the
// contract; throws std::invalid_argument naming the file.
UserScripts read_scripts(const std::vector<std::string>& paths);

// What the reports disclose of a variant's base configuration (clients, TTL, holds, nesting, reads, nodes).
reports::Workload workload_of(const sim::RunConfig& config);

// The command that reruns one cell's seed and writes its history (then `lockcheck check` judges it).
std::string replay_command(const CompareSelection& selection, const std::string& variant, const std::string& family,
                           std::uint64_t seed);

// The command line that reproduces this selection's comparison (without output options), for the reports.
std::string selection_command(const CompareSelection& selection);

}  // namespace lockcheck::compare
