#pragma once
// `lockcheck run`: runs scenarios over their seeds, checks every history, compares with expectations.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "properties/checkers.hpp"
#include "properties/exercise.hpp"
#include "scenario/scenario.hpp"

namespace lockcheck::cli {

// A seed's history from another backend than the simulator (`--backend redis`), and the properties that
// history cannot support (property -> why): those are reported unknown, never holds or violated.
struct BackendHistory {
  std::string jsonl;
  std::map<std::string, std::string> unobservable;
  // External clients that stopped answering and were killed (lockcheck judge, tools/judge/PROTOCOL.md).
  std::vector<std::string> client_hangs;
};

struct RunOptions {
  std::optional<std::uint64_t> seed;   // only this seed
  std::optional<std::uint64_t> runs;   // seeds 1..runs instead of the file's
  unsigned jobs = 1;
  unsigned shard_index = 0, shard_count = 1;  // --shard i/n: this process runs seeds at positions = i mod n
  std::string history_dir;             // write every history here when set
  // Real backends: keep each seed's run directory (the clients' standard error, client-<process>.stderr) in
  // keep_dir/<scenario>-seed<N>/ instead of deleting it with the run (`lockcheck judge --keep DIR`).
  std::string keep_dir;
  bool shrink = true;
  bool progress_bar = false;
  bool strict = false;  // a scenario whose verdicts rest on nothing (ScenarioReport::hollow) is a mismatch
  // Set: every seed runs there instead of the simulator. Real runs are not deterministic, so they are run
  // one at a time, and neither re-run for the determinism check nor shrunk.
  std::function<BackendHistory(const sim::Scenario&, std::uint64_t seed)> real_backend;
};

struct PropertyTally {
  std::int64_t runs = 0;
  std::int64_t violated = 0;
  std::int64_t unknown = 0;
  std::optional<std::uint64_t> first_violating_seed;
  properties::Verdict first_violation;
  std::optional<std::uint64_t> first_unknown_seed;
  std::string first_unknown_reason;  // the summary of the first run that could not judge it
  std::int64_t runs_with_diagnostics = 0;  // non-gating findings beside the verdict (properties::Diagnostic)
  std::optional<std::uint64_t> first_diagnostic_seed;
  std::string first_diagnostic_name;  // e.g. "per_node_double_grant"
  std::string first_diagnostic;       // its cause
  std::string unobservable;  // why the backend could not judge it in some run (BackendHistory), or ""
};

struct Mismatch {
  std::string property;
  sim::Expectation::Expected expected;
  std::string explanation;             // the witness or "no run showed it"
  std::string replay_command;
  std::vector<std::string> minimal_faults;  // after shrinking, when there was a violation to shrink
  // The same schedule as [[faults]] tables: in place of the file's faults and [nemesis], with the seed of the
  // replay command, it reproduces the violation.
  std::string minimal_faults_toml;
};

struct ScenarioReport {
  sim::Scenario scenario;
  std::vector<std::uint64_t> seeds_run;
  std::map<std::string, PropertyTally> tallies;  // every property checked, by name
  std::vector<Mismatch> mismatches;
  bool nondeterministic = false;
  std::string nondeterminism_detail;
  properties::Progress progress;  // of the first seed's run
  properties::Exercise exercise;  // summed over the seeds: what the verdicts rest on
  std::vector<std::string> hollow;  // why a green verdict here would rest on nothing (`--strict` fails on it)
  // "seed N: <which client, which request, how long, its stderr>": a client hung. The run fails (exit 2)
  // whatever the verdicts: a hung client is a broken input, as an invalid scenario is.
  std::vector<std::string> client_hangs;
  // "seed N, t=..., process P: <detail>": the first seed (in seed order) in which a user script broke the lock
  // script contract, or "". The run fails (exit 2) whatever the verdicts: the script is bad input.
  std::string script_contract_breach;
  double wall_seconds = 0;
};

// Runs one scenario; never throws for a violation (that is data), only for internal errors.
ScenarioReport run_scenario(const sim::Scenario& scenario, const RunOptions& options);

// Seeds this process runs for `scenario` under `options` (after --seed, --runs and --shard).
std::vector<std::uint64_t> seeds_for(const sim::Scenario& scenario, const RunOptions& options);

std::string replay_command(const sim::Scenario& scenario, std::uint64_t seed);

}  // namespace lockcheck::cli
