// The lockcheck command line: run scenarios as a CI gate, replay one seed, check a recorded history,
// compare every variant under every fault family (whole, or in shards that merge puts together), serve the
// embedded mock over RESP.
//
// Exit codes: 0 every verdict as expected; 1 a verdict differs from what a file expects (or `check`
// found a violation); 2 bad usage, an invalid scenario, a user lock script that broke its contract (before
// or during a run), or (judge) an external client that hung; 3 internal
// error or nondeterminism detected. The worst wins.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "properties/checkers.hpp"
#include "properties/clauses.hpp"
#include "properties/history_closed.hpp"
#include "compare_command.hpp"
#include "compare_output.hpp"
#include "model/meta_line.hpp"
#include "core/simulate.hpp"
#include "explore_command.hpp"
#include "workload_space.hpp"
#include "model/fault.hpp"
#include "json_report.hpp"
#include "junit.hpp"
#include "redis_backend_option.hpp"
#include "split_command.hpp"
#include "redis/wire/resp_server.hpp"
#include "run_engine.hpp"
#include "scenario/closest_name.hpp"

namespace {

using namespace lockcheck;

constexpr int kExitOk = 0, kExitMismatch = 1, kExitUsage = 2, kExitInternal = 3;

std::string observed_text(const std::string& property, const cli::PropertyTally& tally) {
  if (tally.runs == 0) return "not checked";
  // [expect] progress = "starved" is judged as a claim that holds per seed (properties/starved.hpp).
  if (property == "progress" && tally.violated == 0 && tally.unknown == 0) return fmt::format("starved ({})", tally.runs);
  if (tally.violated > 0) return fmt::format("violated ({}/{})", tally.violated, tally.runs);
  if (tally.unknown == tally.runs) return "unknown";
  // Only judged runs count as holding: "holds (7/10)" says three runs could not tell.
  if (tally.unknown > 0) return fmt::format("holds ({}/{}), unknown ({})", tally.runs - tally.unknown, tally.runs, tally.unknown);
  return fmt::format("holds ({})", tally.runs);
}

void print_report(const cli::ScenarioReport& report) {
  const auto& scenario = report.scenario;
  std::printf("\n%s  (%s, variant %s, %zu seed%s, %.2fs)\n", scenario.name.c_str(), scenario.path.c_str(),
              sim::variant_label(scenario.config).c_str(), report.seeds_run.size(), report.seeds_run.size() == 1 ? "" : "s",
              report.wall_seconds);
  std::printf("  %-28s %-10s %-22s %s\n", "property", "expected", "observed", "");
  for (const auto& [property, tally] : report.tallies) {
    std::string expected = "-";
    std::string verdict;
    for (const auto& expectation : scenario.expectations) {
      if (expectation.property != property) continue;
      expected = std::string(sim::to_string(expectation.expected));
      verdict = "ok";
      for (const auto& mismatch : report.mismatches) {
        if (mismatch.property == property) verdict = "UNEXPECTED";
      }
    }
    std::printf("  %-28s %-10s %-22s %s\n", property.c_str(), expected.c_str(), observed_text(property, tally).c_str(), verdict.c_str());
  }
  for (const auto& [property, tally] : report.tallies) {
    if (tally.violated == 0) continue;
    std::printf("  witness %s (seed %llu): %s\n", property.c_str(),
                static_cast<unsigned long long>(*tally.first_violating_seed), tally.first_violation.cause.c_str());
  }
  for (const auto& [property, tally] : report.tallies) {
    if (tally.runs_with_diagnostics == 0) continue;
    std::printf("  diagnostic %s (not gating; %lld of %lld runs, first seed %llu): %s\n", property.c_str(),
                static_cast<long long>(tally.runs_with_diagnostics), static_cast<long long>(tally.runs),
                static_cast<unsigned long long>(*tally.first_diagnostic_seed), tally.first_diagnostic.c_str());
  }
  for (const auto& [property, tally] : report.tallies) {
    if (!tally.unobservable.empty()) std::printf("  unknown %s: %s\n", property.c_str(), tally.unobservable.c_str());
  }
  for (const auto& mismatch : report.mismatches) {
    std::printf("  UNEXPECTED %s: %s\n    replay: %s\n", mismatch.property.c_str(), mismatch.explanation.c_str(),
                mismatch.replay_command.c_str());
    if (!mismatch.minimal_faults.empty()) {
      std::printf("    minimal fault schedule (%zu):\n", mismatch.minimal_faults.size());
      for (const auto& fault : mismatch.minimal_faults) std::printf("      %s\n", fault.c_str());
      if (!mismatch.minimal_faults_toml.empty()) {
        std::printf("    as [[faults]] (in place of the file's [[faults]] and [nemesis], same seed):\n");
        std::string indented;
        for (const char c : mismatch.minimal_faults_toml.substr(1)) {
          if (indented.empty() || indented.back() == '\n') indented += "      ";
          indented += c;
        }
        std::printf("%s", indented.c_str());
      }
    }
  }
  if (report.nondeterministic) std::printf("  NONDETERMINISM: %s\n", report.nondeterminism_detail.c_str());
  const properties::Exercise& exercise = report.exercise;
  std::printf("  rests on: %zu seed(s); %lld acquires (%lld granted), %lld releases, %lld renewals, %lld unknown "
              "outcomes; %lld faults, %lld while the lock was held, %lld more during a lock operation\n",
              report.seeds_run.size(), static_cast<long long>(exercise.acquires), static_cast<long long>(exercise.acquired),
              static_cast<long long>(exercise.releases), static_cast<long long>(exercise.renews),
              static_cast<long long>(exercise.unknown_outcomes), static_cast<long long>(exercise.faults),
              static_cast<long long>(exercise.faults_during_hold), static_cast<long long>(exercise.faults_during_ops));
  for (const std::string& reason : report.hollow) std::printf("  HOLLOW: %s\n", reason.c_str());
  for (const std::string& hang : report.client_hangs) {
    std::string indented;  // the client's standard error may run over several lines
    for (const char c : hang) indented += c == '\n' ? std::string("\n        ") : std::string(1, c);
    std::printf("  HUNG: %s\n", indented.c_str());
  }
  const auto& progress = report.progress;
  std::printf("  progress (seed %llu): %lld acquisitions, %lld/s, wait p50 %.1f ms, p99 %.1f ms%s\n",
              static_cast<unsigned long long>(report.seeds_run.empty() ? 0 : report.seeds_run.front()),
              static_cast<long long>(progress.acquisitions), static_cast<long long>(progress.acquisitions_per_second),
              static_cast<double>(progress.wait_p50_us) / 1000.0, static_cast<double>(progress.wait_p99_us) / 1000.0,
              progress.starved_processes.empty() ? "" : fmt::format(", {} starved", progress.starved_processes.size()).c_str());
  if (progress.server_errors > 0) {
    std::printf("  server errors (seed %llu): %lld op(s) refused by the server, first: %s\n",
                static_cast<unsigned long long>(report.seeds_run.empty() ? 0 : report.seeds_run.front()),
                static_cast<long long>(progress.server_errors), progress.first_server_error.c_str());
  }
}

int command_run_scenarios(std::vector<sim::Scenario> scenarios, cli::RunOptions options, const std::string& junit_path,
                          const std::string& backend, const std::string& json_path) {
  options.progress_bar = isatty(STDERR_FILENO) != 0;
  std::vector<cli::ScenarioReport> reports;
  int exit_code = kExitOk;
  std::size_t hollow = 0, hung = 0, broken_scripts = 0;
  for (auto& scenario : scenarios) {
    if (!backend.empty()) scenario.backend = backend;
    const cli::RunOptions scenario_options =
        scenario.backend == "redis" ? redis_backend::with_redis_backend(scenario, options) : options;  // invalid_argument -> exit 2
    if (!options.progress_bar) std::fprintf(stderr, "running %s over %zu seed(s)\n", scenario.name.c_str(), cli::seeds_for(scenario, options).size());
    reports.push_back(cli::run_scenario(scenario, scenario_options));
    print_report(reports.back());
    if (reports.back().nondeterministic) exit_code = kExitInternal;
    if (!reports.back().mismatches.empty() && exit_code == kExitOk) exit_code = kExitMismatch;
    // A hung client fails the run without --strict: its verdicts rest on a client that stopped acting, and
    // a library that deadlocks is a finding in itself. 2, not 1: the client broke the protocol, the lock's
    // verdicts did not differ (a CI log tells the two apart by the code alone).
    if (!reports.back().client_hangs.empty()) {
      std::printf("  FAILED: %zu client(s) hung (HUNG above): the run cannot vouch for them\n", reports.back().client_hangs.size());
      hung += reports.back().client_hangs.size();
      exit_code = std::max(exit_code, kExitUsage);
    }
    // A user script outside the contract is bad input, as a hung client is: its verdicts rest on answers the
    // lock could only guess at, so none of them counts (exit 2), whether or not they matched.
    if (!reports.back().script_contract_breach.empty()) {
      std::printf("  CONTRACT: %s\n  FAILED: a lock script broke its contract (CONTRACT above): fix the script; "
                  "scenarios/README.md, [scripts], says what each may answer\n",
                  reports.back().script_contract_breach.c_str());
      ++broken_scripts;
      exit_code = std::max(exit_code, kExitUsage);
    }
    if (options.strict && !reports.back().hollow.empty()) {
      std::printf("  STRICT: %s rests on nothing (HOLLOW above): a gate that exercised nothing fails\n",
                  reports.back().scenario.name.c_str());
      ++hollow;
      if (exit_code == kExitOk) exit_code = kExitMismatch;
    }
  }
  if (!junit_path.empty()) std::ofstream(junit_path) << cli::junit_xml(reports);
  if (!json_path.empty()) std::ofstream(json_path) << cli::json_report(reports);
  std::size_t mismatches = 0, expectations = 0;
  for (const auto& report : reports) {
    mismatches += report.mismatches.size();
    expectations += report.scenario.expectations.size();
  }
  std::printf("\n%zu scenario%s, %zu expectation%s, %zu unexpected%s%s%s\n", reports.size(), reports.size() == 1 ? "" : "s",
              expectations, expectations == 1 ? "" : "s", mismatches,
              hollow > 0 ? fmt::format(", {} resting on nothing (--strict)", hollow).c_str() : "",
              hung > 0 ? fmt::format(", {} hung client{} (exit 2)", hung, hung == 1 ? "" : "s").c_str() : "",
              broken_scripts > 0 ? fmt::format(", {} with a script outside its contract (exit 2)", broken_scripts).c_str() : "");
  return exit_code;
}

int command_run(const std::vector<std::string>& files, const cli::RunOptions& options, const std::string& junit_path,
                const std::string& backend, const std::string& server, const std::string& json_path) {
  std::vector<sim::Scenario> scenarios;
  for (const auto& file : files) {
    scenarios.push_back(sim::load_scenario(file, server));  // ScenarioError -> exit 2
    const sim::ExternalClientConfig& client = scenarios.back().config.external;
    if (client.command.empty() && !client.keys.empty()) {
      throw std::invalid_argument(fmt::format("{}: its [client] names only the keys of an external client's library: "
                                              "run it with lockcheck judge {} --client \"CMD ARGS\"", file, file));
    }
  }
  return command_run_scenarios(std::move(scenarios), options, junit_path, backend, json_path);
}

// `lockcheck judge`: the scenarios on real redis-servers with an external client as every client process
// (tools/judge/PROTOCOL.md); `client` (words, as a shell splits them) replaces a file's [client] command.
int command_judge(const std::vector<std::string>& files, const std::string& client, const std::vector<std::string>& keys,
                  const cli::RunOptions& options, const std::string& junit_path, const std::string& server,
                  const std::string& json_path) {
  std::vector<sim::Scenario> scenarios;
  for (const auto& file : files) {
    sim::Scenario scenario = sim::load_scenario(file, server);  // ScenarioError (file:line) -> exit 2
    if (!client.empty()) scenario.config.external.command = command_line::split_command(client);
    if (!keys.empty()) scenario.config.external.keys = keys;
    if (scenario.config.external.command.empty()) {
      throw std::invalid_argument(fmt::format("{}: no client to judge: give --client \"CMD ARGS\" or [client] command", file));
    }
    if (const std::string refusal = sim::external_client_refusal(scenario.config); !refusal.empty()) {
      throw std::invalid_argument(fmt::format("{}: {}", file, refusal));
    }
    scenarios.push_back(std::move(scenario));
  }
  return command_run_scenarios(std::move(scenarios), options, junit_path, "redis", json_path);
}

int command_replay(const std::string& file, std::uint64_t seed, const std::string& out_path) {
  const sim::Scenario scenario = sim::load_scenario(file);
  const sim::RunResult run = sim::simulate(scenario.config, seed);
  const std::string jsonl = run.history.jsonl();
  if (out_path.empty() || out_path == "-") {
    std::cout << jsonl;
  } else {
    std::ofstream(out_path) << jsonl;
    std::fprintf(stderr, "wrote %zu lines to %s (hash %016llx)\n", run.history.lines().size(), out_path.c_str(),
                 static_cast<unsigned long long>(run.history.hash()));
  }
  for (const auto& verdict : properties::check_all(properties::parse_history(jsonl))) {
    std::fprintf(stderr, "%s\n", properties::to_string(verdict).c_str());
  }
  return kExitOk;
}

// "i/n" with 0 <= i < n, as `run --shard` and `compare --shard` take it.
bool parse_shard(const std::string& text, unsigned& index, unsigned& count) {
  char rest = 0;
  return std::sscanf(text.c_str(), "%u/%u%c", &index, &count, &rest) == 2 && count > 0 && index < count;
}

int command_check(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "lockcheck: cannot open %s\n", path.c_str());
    return kExitUsage;
  }
  const properties::History history = properties::parse_history(in);
  // Part of a run is not a run: judged, its missing end would read as "nothing went wrong".
  if (const std::string cut = properties::history_cut_short(history); !cut.empty()) {
    std::fprintf(stderr, "lockcheck: %s: %s\n", path.c_str(), cut.c_str());
    return kExitUsage;
  }
  bool violated = false;
  for (const auto& verdict : properties::check_all(history)) {
    std::printf("%s\n", properties::to_string(verdict).c_str());
    violated = violated || verdict.outcome == properties::Outcome::violated;
  }
  return violated ? kExitMismatch : kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  // Whole lines in any redirection (`lockcheck run a.toml b.toml > log 2>&1`): stdout goes out a line at a
  // time, so a progress line on stderr (unbuffered: one write per call) never lands inside a report line, and
  // the buffer holds any report line whole.
  static char stdout_buffer[1 << 16];
  std::setvbuf(stdout, stdout_buffer, _IOLBF, sizeof stdout_buffer);
  // Real Redis nodes are killed on purpose: a write to one is a failed call (EPIPE), never the end of this
  // program (the library guards its own writes; this covers the tool's observers and resource client).
  signal(SIGPIPE, SIG_IGN);
  CLI::App app{"lockcheck: Redis lock variants under a deterministic fault-injecting simulator"};
  app.require_subcommand(1);

  auto* run = app.add_subcommand("run", "Run scenario files, check every history, gate on expected verdicts");
  std::vector<std::string> files;
  cli::RunOptions options;
  std::uint64_t seed = 0, runs = 0;
  std::string junit_path, json_path, history_dir, backend, shard, server;
  constexpr const char* kJsonHelp = "Write every scenario's verdict counts as JSON here (per property: runs, holds, "
                                    "violated, unknown), for scripts that gate on exact counts";
  constexpr const char* kServerHelp = "With the redis backend: what each node runs on, redis-server or serve "
                                      "(`lockcheck serve`, single nodes only; default: the file's `server`)";
  run->add_option("files", files, "Scenario files (TOML)")->required()->check(CLI::ExistingFile);
  run->add_option("--seed", seed, "Run only this seed");
  run->add_option("--runs", runs, "Run seeds 1..N instead of the file's seeds");
  run->add_option("--jobs,-j", options.jobs, "Runs in parallel")->check(CLI::Range(1, 64));
  run->add_option("--backend", backend, "mock or redis (default: the file's)")->check(CLI::IsMember({"mock", "redis"}));
  run->add_option("--server", server, kServerHelp)->check(CLI::IsMember({"redis-server", "serve"}));
  run->add_option("--junit", junit_path, "Write JUnit XML here");
  run->add_option("--json", json_path, kJsonHelp);
  run->add_option("--history-dir", history_dir, "Write every run's history (JSONL) here");
  run->add_option("--shard", shard, "i/n: run only every n-th seed starting at i (0-based), to split a sweep");
  run->add_flag("!--no-shrink", options.shrink, "Do not shrink failing runs to a minimal fault schedule");
  run->add_flag("--strict", options.strict,
                "Fail a scenario whose verdicts rest on nothing: a script that never ran, faults that never met a hold");

  auto* judge = app.add_subcommand(
      "judge", "Judge an external lock client (any language, tools/judge/PROTOCOL.md) on real redis-servers under the scenario's faults");
  std::vector<std::string> judge_files, judge_keys;
  std::string judge_client;
  judge->add_option("files", judge_files, "Scenario files (TOML); their lock settings, clients, topology and faults")
      ->required()
      ->check(CLI::ExistingFile);
  judge->add_option("--client", judge_client, "The client's command line, e.g. \"python3 adapters/redis_py_lock.py\" "
                                              "(default: the file's [client] command)");
  judge->add_option("--keys", judge_keys, "The keys the client's library writes when not the scenario's key, e.g. mutex:lock")
      ->delimiter(',');
  judge->add_option("--server", server, kServerHelp)->check(CLI::IsMember({"redis-server", "serve"}));
  judge->add_option("--seed", seed, "Run only this seed");
  judge->add_option("--runs", runs, "Run seeds 1..N instead of the file's seeds");
  judge->add_option("--junit", junit_path, "Write JUnit XML here");
  judge->add_option("--json", json_path, kJsonHelp);
  judge->add_option("--keep", options.keep_dir,
                    "Keep each seed's run directory (the clients' standard error, client-<process>.stderr) in "
                    "DIR/<scenario>-seed<N>/, and print where");
  judge->add_option("--history-dir", history_dir, "Write every run's history (JSONL) here; lockcheck check replays one");
  judge->add_flag("--strict", options.strict, "Fail a scenario whose verdicts rest on nothing");

  auto* replay = app.add_subcommand("replay", "Rerun one seed of a scenario and write its history");
  std::string replay_file, out_path;
  std::uint64_t replay_seed = 1;
  replay->add_option("file", replay_file, "Scenario file")->required()->check(CLI::ExistingFile);
  replay->add_option("--seed", replay_seed, "The seed to replay")->required();
  replay->add_option("--out", out_path, "Write the history here (default: standard output)");

  auto* check = app.add_subcommand("check", "Run the checkers on a recorded history (JSONL)");
  std::string history_path;
  check->add_option("history", history_path, "History file (JSON Lines, sim/README.md)")->required();

  auto* compare = app.add_subcommand("compare", "Every variant under every fault family: matrix.md, report.html, results.json");
  cli::CompareOptions compare_options;
  compare->add_option("--variants", compare_options.selection.variants, "Variant ids, each also as <id>+watchdog where it can renew (default: all but script; none with named --scripts)")->delimiter(',');
  compare->add_option("--faults", compare_options.selection.families, "Fault family ids (default: all)")->delimiter(',');
  compare->add_option("--runs", compare_options.selection.runs, "Seeds 1..N per cell")->check(CLI::Range(1, 100000));
  compare->add_option("--seed", seed, "Run only this seed (replaying one cell)");
  compare->add_option("--scripts", compare_options.selection.script_paths,
                      "acquire.lua,release.lua[,renew.lua]: include the script variant with these (with a "
                      "renew.lua also script+watchdog, which runs it). Or NAME=acquire.lua,release.lua[,renew.lua], "
                      "repeated: one row per named set, side by side (catalogue rows only with --variants)")
      ->delimiter(',');  // files are read, and a missing one named, by compare_plan (exit 2)
  compare->add_option("--clients", compare_options.selection.clients,
                      "External lock clients as rows (with --backend redis): NAME=CMD ARGS, e.g. "
                      "\"redis-py=python3 tools/judge/adapters/redis_py_lock.py\" (tools/judge/PROTOCOL.md)")
      ->delimiter(',');
  compare->add_option("--client-keys", compare_options.selection.client_keys,
                      "NAME=KEY[+KEY]: the keys client NAME's library writes, when not the lock's key (e.g. mutex:lock)");
  compare->add_option("--out", compare_options.out_dir, "Write matrix.md, report.html, results.json here (default: print matrix.md)");
  compare->add_option("--junit", compare_options.junit_path, "Write JUnit XML here");
  compare->add_option("--history-dir", compare_options.history_dir, "Write every run's history (JSONL) here");
  compare->add_option("--jobs,-j", compare_options.jobs, "Runs in parallel")->check(CLI::Range(1, 64));
  compare->add_option("--server", compare_options.server, "With --backend redis: what each node runs on, redis-server "
                                                         "(default) or serve (`lockcheck serve`; single-node cells only)")
      ->check(CLI::IsMember({"redis-server", "serve"}));
  compare->add_option("--backend", compare_options.backend,
                      "mock (default), or redis: real redis-servers, real time (use few variants, faults and --runs)")
      ->check(CLI::IsMember({"mock", "redis"}));
  std::string compare_shard;
  compare->add_option("--shard", compare_shard,
                      "i/n (0 <= i < n): run only the cells whose index mod n is i and write "
                      "DIR/compare-shard-i-of-n.json (needs --out DIR); `lockcheck merge` renders the n shards");

  auto* merge = app.add_subcommand(
      "merge", "Combine the shard files of `compare --shard i/n` into matrix.md, report.html, results.json (and "
               "JUnit), byte for byte those of one unsharded compare; or unite explore outputs (shards, nights): finds "
               "deduplicated and replayed, marks summed, one explore.json");
  cli::MergeOptions merge_options;
  merge->add_option("inputs", merge_options.inputs,
                    "compare: shard files, or directories holding compare-shard-*.json (every shard 0..n-1 exactly "
                    "once). explore: explore.json files, or directories holding one or shards' folders with one")
      ->required();
  merge->add_option("--out", merge_options.out_dir, "Write matrix.md, report.html, results.json here (default: print matrix.md); "
                                                    "explore: the merged explore.json and the kept finds' files");
  merge->add_option("--junit", merge_options.junit_path, "Write JUnit XML here (compare)");

  auto* explore = app.add_subcommand(
      "explore", "Search the fault model for a counterexample (swarm, guided by marks), shrink it, write it as a scenario");
  cli::ExploreCommandOptions explore_options;
  std::string strategy = "guided";
  double budget_s = 0;
  std::uint64_t budget_runs = 0, explore_seed = 1;
  explore->add_option("scenario", explore_options.scenario_path,
                      "A starting scenario: its topology and lock settings are kept, its faults are a starting point")
      ->check(CLI::ExistingFile);
  explore->add_option("--variant", explore_options.variant, "A catalogue variant id, or all (every one but script)");
  explore->add_option("--scripts", explore_options.script_paths, "Your acquire.lua,release.lua[,renew.lua]")
      ->delimiter(',')
      ->check(CLI::ExistingFile);
  explore->add_option("--budget-s", budget_s, "Stop after this many seconds (per lock)")->check(CLI::PositiveNumber);
  explore->add_option("--budget-runs", budget_runs, fmt::format("Stop after this many runs (per lock; without --budget-s the default is {}, {} with --variant all; "
                                                                "with --shard, the shards' total): with --seed, the same result on every machine",
                                                                explore::kDefaultBudgetRuns, explore::kDefaultBudgetRunsEach))
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{100000000}));
  explore->add_option("--seed", explore_seed, "The search's seed (default 1)");
  explore->add_option("--jobs,-j", explore_options.search.jobs, "Runs in parallel (the result does not depend on it)")
      ->check(CLI::Range(1, 64));
  explore->add_option("--out", explore_options.out_dir, "Write each find as DIR/<lock>-<property>.toml (default lockcheck-explore)");
  explore->add_flag("--all-properties", explore_options.search.all_properties,
                    "Go on after the first find: one file per property the search can break");
  std::vector<std::string> explore_selectors(std::begin(sim::kExpectableProperties), std::end(sim::kExpectableProperties));
  for (const properties::Clause& clause : properties::kClauses) {
    explore_selectors.push_back(fmt::format("{}/{}", clause.property, clause.name));
  }
  explore->add_option("--property", explore_options.search.only_property,
                      "Only a violation of this property counts as a find; P/CLAUSE, only that clause of it (latch/never_opened, "
                      "permit_safety/permit_lost, ...)")
      ->check(CLI::IsMember(explore_selectors));
  explore->add_option("--strategy", strategy, "guided (default), swarm (a random subset of fault kinds per run) or all-on")
      ->check(CLI::IsMember({"guided", "swarm", "all-on"}));
  std::vector<std::string> explore_without;
  explore->add_option("--without", explore_without,
                      "Leave these fault kinds out of the search (e.g. failover,node_clock_jump: a known limit of your "
                      "deployment), the starting scenario's own too")
      ->delimiter(',');
  explore->add_option("--reference", explore_options.search.reference,
                      "The correct lock whose breaking under the same schedule makes a find a known limit, not the "
                      "lock's own bug (default: the variant's kind: token, watchdog, reentrant-hash, redlock, fenced, rw-owned)");
  bool pin_check_lease = false;
  std::string pin_fencing, pin_watchdog, pin_hold;
  explore->add_flag("--check-lease", pin_check_lease, "Holders check their lease before writing (not drawn)");
  explore->add_option("--fencing", pin_fencing, "What the resource checks of fencing tokens (not drawn)")
      ->check(CLI::IsMember({"off", "writes", "reads-and-writes"}));
  explore->add_option("--watchdog", pin_watchdog, "Renewal by the watchdog on or off (not drawn)")->check(CLI::IsMember({"on", "off"}));
  explore->add_option("--hold-ms", pin_hold, "Hold times MIN,MAX in ms (not drawn; past the TTL only where the lock renews)");
  std::int64_t pin_ttl_ms = 0;
  explore->add_option("--ttl-ms", pin_ttl_ms, "The TTL your scripts are given, in ms (not drawn; drawn: the base's, 1.5 or 2.5 times it)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{86'400'000}));
  explore->add_option("--client", explore_options.client.command,
                      "An external lock client's command line (tools/judge/PROTOCOL.md), e.g. \"node tools/judge/adapters/node_redlock.js\": "
                      "its runs are judged on real redis-servers (with a SCENARIO.toml: in place of its [client] command)");
  explore->add_option("--client-keys", explore_options.client.keys, "The keys the client's library writes, e.g. mutex:lock (as judge --keys)")
      ->delimiter(',');
  explore->add_option("--client-renews", explore_options.client.renews,
                      "Whether the client renews its lease by itself: yes, no or auto (default: a scenario's holds past the TTL "
                      "say yes; else one probe run)")
      ->check(CLI::IsMember({"yes", "no", "auto"}));
  explore->add_option("--parallel", explore_options.client.parallel, "--client: judged runs at once (default 3)")->check(CLI::Range(1, 16));
  explore->add_option("--confirm", explore_options.client.confirm_runs, "--client: reruns that confirm a find (default 5)")
      ->check(CLI::Range(2, 50));
  explore->add_option("--shrink-runs", explore_options.client.shrink_runs, "--client: judged runs a find's shrinking may spend (default 16)")
      ->check(CLI::Range(0, 10000));
  std::string explore_shard;
  explore->add_option("--shard", explore_shard,
                      "i/n (0 <= i < n): search shard i's part (its own seed from --seed and i, 1/n of --budget-runs) "
                      "into DIR/explore-<lock>-seed-<seed>-shard-i-of-n/; `lockcheck merge` unites the shards");
  explore->add_option("--corpus", explore_options.corpus_dir,
                      "Resume from the kept runs in this folder (run first, outside the budget), and add this search's "
                      "kept runs to it: one file per run, named by its content, so shards and nights share the folder");

  auto* serve = app.add_subcommand("serve", "Serve the embedded Redis mock over RESP2, or RESP3 after HELLO 3 (real clock)");
  lockcheck::mock::ServeOptions serve_options{.port = 6380};
  serve->add_option("--bind,--host", serve_options.host, "Address to bind (loopback by default)");
  serve->add_option("--port", serve_options.port, "TCP port")->check(CLI::Range(1, 65535));
  serve->add_option("--requirepass", serve_options.requirepass, "Clients must AUTH with this password")
      ->envname("LOCKCHECK_REQUIREPASS");

  // CLI11 would answer a mistyped subcommand with "A subcommand is required": name it, and the closest one.
  if (argc > 1 && argv[1][0] != '-') {
    std::vector<std::string_view> names;
    for (const CLI::App* sub : app.get_subcommands({})) names.push_back(sub->get_name());
    const std::string_view given = argv[1];
    if (std::find(names.begin(), names.end(), given) == names.end()) {
      std::fprintf(stderr, "%s", fmt::format("lockcheck: unknown subcommand '{}'{}; known: {} (lockcheck --help)\n", given,
                                             sim::scenario_detail::did_you_mean(given, names), fmt::join(names, ", "))
                                     .c_str());
      return kExitUsage;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int code = app.exit(error);
    return code == 0 ? kExitOk : kExitUsage;
  }

  try {
    if (*run) {
      if (run->count("--seed") > 0) options.seed = seed;
      if (run->count("--runs") > 0) options.runs = runs;
      options.history_dir = history_dir;
      if (!shard.empty()) {
        unsigned index = 0, count = 0;
        if (!parse_shard(shard, index, count)) {
          std::fprintf(stderr, "lockcheck: --shard wants i/n with 0 <= i < n, got '%s'\n", shard.c_str());
          return kExitUsage;
        }
        options.shard_index = index;
        options.shard_count = count;
      }
      return command_run(files, options, junit_path, backend, server, json_path);
    }
    if (*judge) {
      if (judge->count("--seed") > 0) options.seed = seed;
      if (judge->count("--runs") > 0) options.runs = runs;
      options.history_dir = history_dir;
      return command_judge(judge_files, judge_client, judge_keys, options, junit_path, server, json_path);
    }
    if (*compare) {
      if (compare->count("--seed") > 0) compare_options.selection.seed = seed;
      if (!compare_shard.empty() &&
          !parse_shard(compare_shard, compare_options.shard_index, compare_options.shard_count)) {
        std::fprintf(stderr, "lockcheck: --shard wants i/n with 0 <= i < n, got '%s'\n", compare_shard.c_str());
        return kExitUsage;
      }
      return cli::command_compare(compare_options);
    }
    if (*merge) return cli::command_merge(merge_options);
    if (*explore) {
      if (explore->count("--budget-s") > 0) explore_options.budget_seconds = budget_s;
      if (explore->count("--budget-runs") > 0) explore_options.budget_runs = budget_runs;
      explore_options.search.seed = explore_seed;
      if (!explore_shard.empty()) {
        unsigned index = 0, count = 0;
        if (!parse_shard(explore_shard, index, count)) {
          std::fprintf(stderr, "lockcheck: --shard wants i/n with 0 <= i < n, got '%s'\n", explore_shard.c_str());
          return kExitUsage;
        }
        explore_options.shard = explore::ShardSpec{index, count};
      }
      explore_options.search.strategy = strategy == "swarm"    ? explore::Strategy::swarm
                                        : strategy == "all-on" ? explore::Strategy::all_on
                                                               : explore::Strategy::guided;
      explore_options.progress = true;
      explore::WorkloadPins& pins = explore_options.search.pins;
      if (pin_check_lease) pins.check_lease = true;
      if (!pin_fencing.empty()) {
        pins.fencing = pin_fencing == "writes" ? sim::Fencing::writes
                       : pin_fencing == "off"  ? sim::Fencing::off
                                               : sim::Fencing::reads_and_writes;
      }
      if (!pin_watchdog.empty()) pins.watchdog = pin_watchdog == "on";
      if (pin_ttl_ms > 0) pins.ttl_ms = pin_ttl_ms;
      if (!pin_hold.empty()) {
        long long low = 0, high = 0;
        char extra = 0;
        if (std::sscanf(pin_hold.c_str(), "%lld,%lld%c", &low, &high, &extra) != 2 || low < 0 || high < low) {
          std::fprintf(stderr, "lockcheck: --hold-ms wants MIN,MAX in milliseconds with 0 <= MIN <= MAX, got '%s'\n",
                       pin_hold.c_str());
          return kExitUsage;
        }
        pins.hold_us = std::make_pair(static_cast<std::int64_t>(low) * 1000, static_cast<std::int64_t>(high) * 1000);
      }
      for (const std::string& name : explore_without) {
        const std::optional<sim::FaultKind> kind = sim::fault_kind_named(name);
        if (!kind || !sim::drawn_on_its_own(*kind)) {
          std::vector<std::string_view> kinds;
          for (const sim::FaultKind known : sim::kFaultKinds) {
            if (sim::drawn_on_its_own(known)) kinds.push_back(sim::to_string(known));
          }
          std::fprintf(stderr, "%s", fmt::format("lockcheck: --without: '{}' is not a fault kind explore draws{}; "
                                                 "known: {}\n", name, kind ? " on its own (it comes with the fault it ends)"
                                                 : sim::scenario_detail::did_you_mean(name, kinds), fmt::join(kinds, ", ")).c_str());
          return kExitUsage;
        }
        explore_options.search.without.push_back(*kind);
      }
      return cli::command_explore(explore_options);
    }
    if (*replay) return command_replay(replay_file, replay_seed, out_path);
    if (*check) return command_check(history_path);
    if (*serve) return lockcheck::mock::serve_main(serve_options);
  } catch (const sim::ScenarioError& error) {
    std::fprintf(stderr, "lockcheck: %s\n", error.what());
    return kExitUsage;
  } catch (const properties::ParseError& error) {
    std::fprintf(stderr, "lockcheck: %s: %s\n", history_path.c_str(), error.what());
    return kExitUsage;
  } catch (const std::invalid_argument& error) {
    std::fprintf(stderr, "lockcheck: %s\n", error.what());
    return kExitUsage;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "lockcheck: internal error: %s\n", error.what());
    return kExitInternal;
  }
  return kExitUsage;
}
