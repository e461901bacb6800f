#include "compare_command.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>

#include "redis_backend_option.hpp"
#include "compare_output.hpp"
#include "core/simulate.hpp"
#include "progress_bar.hpp"
#include "reports/cell_status.hpp"
#include "reports/comparison_shard.hpp"
#include "run_engine.hpp"

namespace lockcheck::cli {
namespace {

constexpr int kExitOk = 0, kExitHung = 2, kExitBadInput = 2, kExitInternal = 3;

reports::Cell to_cell(const compare::PlannedCell& planned, const ScenarioReport& report) {
  reports::Cell cell{planned.variant, planned.family, {}, report.progress, planned.scenario.config.duration_us};
  std::vector<std::string> names;
  for (const auto& [property, tally] : report.tallies) names.push_back(property);
  reports::sort_in_checker_order(names);
  for (const std::string& property : names) {
    const PropertyTally& tally = report.tallies.at(property);
    cell.properties.push_back(reports::PropertyResult{property, tally.runs, tally.violated, tally.unknown,
                                                      tally.first_violating_seed, tally.first_violation,
                                                      tally.runs_with_diagnostics, tally.first_diagnostic_seed,
                                                      tally.first_diagnostic_name, tally.first_diagnostic});
  }
  return cell;
}

// Reruns one violating seed (the simulator is deterministic, so it is the same run) and draws it.
reports::Counterexample draw_counterexample(const compare::CompareSelection& selection,
                                            const compare::PlannedCell& planned, std::uint64_t seed) {
  const sim::RunResult run = sim::simulate(planned.scenario.config, seed);
  const properties::History history = properties::parse_history(run.history.jsonl());
  reports::Counterexample example{planned.variant, planned.family, seed, {}, {}, {}};
  for (properties::Verdict& verdict : properties::check_all(history)) {
    if (verdict.outcome == properties::Outcome::violated) example.violations.push_back(std::move(verdict));
  }
  example.replay_command = compare::replay_command(selection, planned.variant, planned.family, seed);
  example.timeline = reports::build_timeline(history, example.violations);
  return example;
}

void add_counterexamples(const compare::CompareSelection& selection, const compare::PlannedCell& planned,
                         const reports::Cell& cell, std::vector<reports::Counterexample>& out) {
  std::vector<std::uint64_t> drawn;
  for (const reports::PropertyResult& result : cell.properties) {
    if (!result.first_violating_seed) continue;
    const std::uint64_t seed = *result.first_violating_seed;
    if (std::find(drawn.begin(), drawn.end(), seed) != drawn.end()) continue;
    drawn.push_back(seed);
    out.push_back(draw_counterexample(selection, planned, seed));
  }
}

}  // namespace

int command_compare(const CompareOptions& options) {
  if (options.backend != "mock" && options.backend != "redis") {
    throw std::invalid_argument(fmt::format("compare: unknown backend '{}' (mock or redis)", options.backend));
  }
  const bool sharded = options.shard_count > 1;
  if (options.shard_count == 0 || options.shard_index >= options.shard_count) {
    throw std::invalid_argument(fmt::format("--shard wants i/n with 0 <= i < n, got {}/{}", options.shard_index,
                                            options.shard_count));
  }
  if (sharded && options.out_dir.empty()) {
    throw std::invalid_argument("--shard needs --out DIR (the shard's file goes there; `lockcheck merge` renders)");
  }
  if (sharded && !options.junit_path.empty()) {
    throw std::invalid_argument("--junit is written by `lockcheck merge ... --junit OUT.xml`, not by a shard");
  }
  const bool real_redis = options.backend == "redis";
  if (!options.selection.clients.empty() && !real_redis) {
    throw std::invalid_argument("compare --clients runs external clients on real redis-server processes: add --backend redis");
  }
  const bool on_serve = options.server == "serve";
  if (on_serve && !real_redis) {
    throw std::invalid_argument("compare --server serve runs each node as a `lockcheck serve` process: add --backend redis");
  }
  const compare::ComparePlan plan = compare::plan_comparison(options.selection);
  reports::ComparisonShard shard;
  shard.index = options.shard_index;
  shard.count = options.shard_count;
  reports::Comparison& frame = shard.frame;
  frame.command = compare::selection_command(options.selection);
  frame.backend = options.backend;
  frame.seeds = plan.seeds;
  frame.variants = plan.variants;
  frame.workloads = plan.workloads;
  frame.families = plan.families;
  frame.notes = plan.notes;
  if (real_redis) {
    // With --server serve every node is the embedded mock over RESP: still real processes, sockets and time.
    const std::string servers = on_serve ? "`lockcheck serve` processes (`--backend redis --server serve`, single "
                                           "nodes only: a cell that needs replicas, a cluster, sentinels or restarts "
                                           "that keep data is not run, and its note says why)"
                                         : "real redis-server processes (`--backend redis`)";
    frame.notes.push_back(
        "Run on " + servers + ": real time, not deterministic; no timelines are drawn (they re-simulate a seed on "
        "the mock). `--history-dir` keeps each run's history for `lockcheck check`.");
  }

  RunOptions run_options;
  run_options.jobs = options.jobs;
  run_options.history_dir = options.history_dir;
  run_options.shrink = false;  // nothing is expected, so nothing to shrink
  const bool tty = isatty(STDERR_FILENO) != 0;
  std::size_t shard_cells = 0;
  for (std::size_t index = 0; index < plan.cells.size(); ++index) {
    shard_cells += reports::shard_runs_cell(index, shard.index, shard.count) ? 1 : 0;
  }
  const std::size_t total_runs = shard_cells * plan.seeds.size();
  const auto started = std::chrono::steady_clock::now();
  int exit_code = kExitOk;
  std::size_t done = 0;
  std::string announced;
  for (std::size_t index = 0; index < plan.cells.size(); ++index) {
    if (!reports::shard_runs_cell(index, shard.index, shard.count)) continue;
    const compare::PlannedCell& planned = plan.cells[index];
    reports::CellOutcome& outcome = shard.outcomes.emplace_back();
    outcome.index = index;
    if (!tty && planned.variant != announced) {
      std::fprintf(stderr, "compare: %s under %zu fault famil%s x %zu seed(s)%s\n", planned.variant.c_str(),
                   plan.families.size(), plan.families.size() == 1 ? "y" : "ies", plan.seeds.size(),
                   sharded ? fmt::format(", shard {}/{}", shard.index, shard.count).c_str() : "");
      announced = planned.variant;
    }
    try {
      RunOptions cell_options = run_options;
      sim::Scenario scenario = planned.scenario;
      if (on_serve) scenario.server = "serve";
      if (real_redis) {
        try {
          cell_options = redis_backend::with_redis_backend(scenario, run_options);
        } catch (const std::invalid_argument& refused) {
          // A fault this backend cannot make real (eviction): the cell is skipped and says why.
          outcome.notes.push_back(fmt::format("`{}` under `{}` is not run on {}: {}", planned.variant, planned.family,
                                              on_serve ? "`lockcheck serve`" : "real Redis", refused.what()));
          done += plan.seeds.size();
          continue;
        }
      }
      const ScenarioReport report = run_scenario(scenario, cell_options);
      if (report.nondeterministic) {
        std::fprintf(stderr, "lockcheck: NONDETERMINISM in %s: %s\n", planned.scenario.name.c_str(),
                     report.nondeterminism_detail.c_str());
        exit_code = kExitInternal;
      }
      // A client row whose client hung: its cell stays, the notes say which request, and the exit is 2 (as
      // `lockcheck judge`'s, tools/judge/PROTOCOL.md) unless something worse happened.
      for (const std::string& hang : report.client_hangs) {
        outcome.notes.push_back(fmt::format("`{}` under `{}`: a client hung, {}", planned.variant, planned.family, hang));
        exit_code = std::max(exit_code, kExitHung);
      }
      // A user script that broke its contract: its cell rests on answers the lock could only guess at; exit 2,
      // as `lockcheck run` does.
      if (!report.script_contract_breach.empty()) {
        outcome.notes.push_back(fmt::format("`{}` under `{}`: a lock script broke its contract, {}", planned.variant,
                                            planned.family, report.script_contract_breach));
        std::fprintf(stderr, "lockcheck: %s: a lock script broke its contract, %s\n", planned.scenario.name.c_str(),
                     report.script_contract_breach.c_str());
        exit_code = std::max(exit_code, kExitBadInput);
      }
      outcome.cell = to_cell(planned, report);
      if (!real_redis) add_counterexamples(options.selection, planned, *outcome.cell, outcome.counterexamples);
    } catch (const std::exception& error) {
      // One cell that cannot run (a new variant that needs a configuration compare does not give it) must
      // not hide the others: its cell stays empty, the reports say why, and the exit code is 3.
      std::fprintf(stderr, "lockcheck: %s failed: %s\n", planned.scenario.name.c_str(), error.what());
      outcome.notes.push_back(fmt::format("`{}` under `{}` did not run: {}", planned.variant, planned.family, error.what()));
      exit_code = kExitInternal;
    }
    done += plan.seeds.size();
    if (tty) {
      show_progress(fmt::format("{} x {}", planned.variant, planned.family), done, total_runs,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    }
  }
  shard.exit_code = exit_code;

  if (sharded) {
    const std::string path = write_shard_file(shard, options.out_dir);
    std::printf("wrote %s: shard %zu/%zu, %zu of %zu cells, %zu runs; `lockcheck merge` renders all shards\n",
                path.c_str(), shard.index, shard.count, shard_cells, plan.cells.size(), total_runs);
    return exit_code;
  }
  // The same assembly as `lockcheck merge`, so that a merged sweep writes these bytes too.
  const reports::Comparison comparison = reports::merge_shards({shard}, {"this run"});
  write_comparison_files(comparison, options.out_dir, options.junit_path);
  return exit_code;
}

}  // namespace lockcheck::cli
