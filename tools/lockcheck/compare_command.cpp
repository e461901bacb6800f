#include "compare_command.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "../redis_backend/backend.hpp"
#include "core/simulate.hpp"
#include "progress_bar.hpp"
#include "reports/cell_status.hpp"
#include "reports/compare_junit.hpp"
#include "reports/matrix_markdown.hpp"
#include "reports/report_html.hpp"
#include "reports/results_json.hpp"
#include "run_engine.hpp"

namespace lockcheck::cli {
namespace {

constexpr int kExitOk = 0, kExitInternal = 3;

reports::Cell to_cell(const compare::PlannedCell& planned, const ScenarioReport& report) {
  reports::Cell cell{planned.variant, planned.family, {}, report.progress, planned.scenario.config.duration_us};
  std::vector<std::string> names;
  for (const auto& [property, tally] : report.tallies) names.push_back(property);
  reports::sort_in_checker_order(names);
  for (const std::string& property : names) {
    const PropertyTally& tally = report.tallies.at(property);
    cell.properties.push_back(reports::PropertyResult{property, tally.runs, tally.violated, tally.unknown,
                                                      tally.first_violating_seed, tally.first_violation});
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

void write_file(const std::filesystem::path& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary);
  out << content;
  if (!out) throw std::runtime_error(fmt::format("cannot write {}", path.string()));
}

}  // namespace

int command_compare(const CompareOptions& options) {
  if (options.backend != "mock" && options.backend != "redis") {
    throw std::invalid_argument(fmt::format("compare: unknown backend '{}' (mock or redis)", options.backend));
  }
  const bool real_redis = options.backend == "redis";
  const compare::ComparePlan plan = compare::plan_comparison(options.selection);
  reports::Comparison comparison;
  comparison.command = compare::selection_command(options.selection);
  comparison.backend = options.backend;
  comparison.seeds = plan.seeds;
  comparison.variants = plan.variants;
  comparison.families = plan.families;
  comparison.notes = plan.notes;
  if (real_redis) {
    comparison.notes.push_back(
        "Run on real redis-server processes (`--backend redis`): real time, not deterministic; no timelines are "
        "drawn (they re-simulate a seed on the mock). `--history-dir` keeps each run's history for `lockcheck check`.");
  }

  RunOptions run_options;
  run_options.jobs = options.jobs;
  run_options.history_dir = options.history_dir;
  run_options.shrink = false;  // nothing is expected, so nothing to shrink
  const bool tty = isatty(STDERR_FILENO) != 0;
  const std::size_t total_runs = plan.cells.size() * plan.seeds.size();
  const auto started = std::chrono::steady_clock::now();
  int exit_code = kExitOk;
  std::size_t done = 0;
  std::string announced;
  for (const compare::PlannedCell& planned : plan.cells) {
    if (!tty && planned.variant != announced) {
      std::fprintf(stderr, "compare: %s under %zu fault famil%s x %zu seed(s)\n", planned.variant.c_str(),
                   plan.families.size(), plan.families.size() == 1 ? "y" : "ies", plan.seeds.size());
      announced = planned.variant;
    }
    try {
      RunOptions cell_options = run_options;
      if (real_redis) {
        try {
          cell_options = redis_backend::with_redis_backend(planned.scenario, run_options);
        } catch (const std::invalid_argument& refused) {
          // A fault this backend cannot make real (eviction): the cell is skipped and says why.
          comparison.notes.push_back(fmt::format("`{}` under `{}` is not run on real Redis: {}", planned.variant,
                                                 planned.family, refused.what()));
          done += plan.seeds.size();
          continue;
        }
      }
      const ScenarioReport report = run_scenario(planned.scenario, cell_options);
      if (report.nondeterministic) {
        std::fprintf(stderr, "lockcheck: NONDETERMINISM in %s: %s\n", planned.scenario.name.c_str(),
                     report.nondeterminism_detail.c_str());
        exit_code = kExitInternal;
      }
      comparison.cells.push_back(to_cell(planned, report));
      if (!real_redis) add_counterexamples(options.selection, planned, comparison.cells.back(), comparison.counterexamples);
    } catch (const std::exception& error) {
      // One cell that cannot run (a new variant that needs a configuration compare does not give it) must
      // not hide the others: its cell stays empty, the reports say why, and the exit code is 3.
      std::fprintf(stderr, "lockcheck: %s failed: %s\n", planned.scenario.name.c_str(), error.what());
      comparison.notes.push_back(fmt::format("`{}` under `{}` did not run: {}", planned.variant, planned.family, error.what()));
      exit_code = kExitInternal;
    }
    done += plan.seeds.size();
    if (tty) {
      show_progress(fmt::format("{} x {}", planned.variant, planned.family), done, total_runs,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    }
  }

  const std::string matrix = reports::matrix_markdown(comparison);
  if (options.out_dir.empty()) {
    std::fputs(matrix.c_str(), stdout);
  } else {
    const std::filesystem::path dir(options.out_dir);
    std::filesystem::create_directories(dir);
    write_file(dir / "matrix.md", matrix);
    write_file(dir / "report.html", reports::report_html(comparison));
    write_file(dir / "results.json", reports::results_json(comparison));
    std::printf("wrote %s, %s and %s: %zu cells, %zu runs, %zu counterexamples\n", (dir / "matrix.md").c_str(),
                (dir / "report.html").c_str(), (dir / "results.json").c_str(), comparison.cells.size(), total_runs,
                comparison.counterexamples.size());
  }
  if (!options.junit_path.empty()) write_file(options.junit_path, reports::compare_junit_xml(comparison));
  return exit_code;
}

}  // namespace lockcheck::cli
