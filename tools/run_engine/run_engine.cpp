#include "run_engine.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

#include "core/simulate.hpp"
#include "properties/script_contract.hpp"
#include "properties/starved.hpp"
#include "progress_bar.hpp"
#include "shrink.hpp"  // tools/shrink
#include "lockcheck/variants/registry.hpp"

namespace lockcheck::cli {
namespace {

struct SeedRun {
  std::uint64_t seed = 0;
  std::uint64_t hash = 0;
  std::vector<properties::Verdict> verdicts;
  std::map<std::string, std::string> unobservable;
  std::vector<std::string> client_hangs;
  properties::Progress progress;
  properties::Exercise exercise;
  std::optional<properties::ContractBreach> contract_breach;
  std::string error;
};

// What makes a green verdict rest on nothing: no verdict expected, a script that never ran, faults that never
// met a hold. A file that claims only violations (an explore find) claims nothing green: each violation rests
// on its witness.
std::vector<std::string> hollow_reasons(const sim::Scenario& scenario, const properties::Exercise& exercise) {
  std::vector<std::string> reasons;
  if (!scenario.expects_none_because.empty()) {
    reasons.push_back(fmt::format("the file expects no verdict ([expect] none = \"{}\")", scenario.expects_none_because));
  }
  const bool claims_green = scenario.expectations.empty() ||
                            std::any_of(scenario.expectations.begin(), scenario.expectations.end(), [](const sim::Expectation& e) {
                              return e.expected == sim::Expectation::Expected::holds;
                            });
  if (!claims_green) return reasons;
  const sim::RunConfig& config = scenario.config;
  if (variant_has(config.variant, &VariantRow::user_scripts) && exercise.acquires == 0) reasons.push_back("acquire.lua never ran (no acquire in any seed)");
  if (exercise.acquired > 0 && exercise.releases == 0) reasons.push_back("no release ran in any seed");
  if (!scenario.scripts.renew.empty() && exercise.renews == 0) {
    reasons.push_back("renew.lua never ran: no renewal in any seed (holds shorter than the renewal interval?)");
  }
  const sim::NemesisConfig& nemesis = config.nemesis;
  const bool faults_asked = !config.faults.empty() || nemesis.pause_every_us > 0 || nemesis.crash_every_us > 0 ||
                            nemesis.partition_every_us > 0 || nemesis.node_clock_jump_every_us > 0 ||
                            nemesis.node_crash_every_us > 0 || !nemesis.drawn.empty();
  if (faults_asked && exercise.faults == 0) reasons.push_back("no fault took effect in any seed");
  if (exercise.faults > 0 && exercise.faults_during_hold == 0 && exercise.faults_during_ops == 0) {
    reasons.push_back(fmt::format("none of the {} fault(s) landed while a client held the lock or had a lock "
                                  "operation in flight", exercise.faults));
  }
  return reasons;
}

SeedRun run_one(const sim::Scenario& scenario, std::uint64_t seed, const RunOptions& options) {
  SeedRun out;
  out.seed = seed;
  try {
    std::string jsonl;
    std::map<std::string, std::string>& unobservable = out.unobservable;
    bool hit_event_limit = false;
    std::optional<sim::RunResult> run;  // a simulated run's lines are judged as they are, not joined into text first
    if (options.real_backend) {
      BackendHistory real = options.real_backend(scenario, seed);
      jsonl = std::move(real.jsonl);
      unobservable = std::move(real.unobservable);
      out.client_hangs = std::move(real.client_hangs);
    } else {
      run = sim::simulate(scenario.config, seed);
      out.hash = run->history.hash();
      hit_event_limit = run->hit_event_limit;
    }
    if (!options.history_dir.empty()) {
      std::filesystem::create_directories(options.history_dir);
      std::ofstream(std::filesystem::path(options.history_dir) / fmt::format("{}-seed{}.jsonl", scenario.name, seed))
          << (run ? run->history.jsonl() : jsonl);
    }
    const properties::History history =
        run ? properties::parse_history(run->history) : properties::parse_history(jsonl);
    out.verdicts = properties::check_all(history);
    // `[expect] progress = "starved"`: the scenario's claim that nothing can be acquired, judged per seed.
    for (const sim::Expectation& expectation : scenario.expectations) {
      if (expectation.expected == sim::Expectation::Expected::starved) {
        out.verdicts.push_back(properties::check_starved(history, expectation.because));
      }
    }
    for (properties::Verdict& verdict : out.verdicts) {
      if (auto why = unobservable.find(verdict.property); why != unobservable.end()) {
        verdict = properties::Verdict{verdict.property, properties::Outcome::unknown, why->second, {}, {}, {}, {}, {}, {}};
      }
    }
    out.progress = properties::measure_progress(history);
    out.exercise = properties::exercise_of(history);
    out.contract_breach = properties::first_script_contract_breach(history);
    if (hit_event_limit) out.error = fmt::format("seed {} hit the event limit of {} events", seed, scenario.config.max_events);
  } catch (const std::exception& error) {
    out.error = fmt::format("seed {}: {}", seed, error.what());
  }
  return out;
}

}  // namespace

std::string replay_command(const sim::Scenario& scenario, std::uint64_t seed) {
  if (scenario.backend == "redis") {
    return fmt::format("lockcheck run {} --backend redis --seed {} --history-dir .", scenario.path, seed);
  }
  return fmt::format("lockcheck replay {} --seed {} --out {}-seed{}.jsonl", scenario.path, seed, scenario.name, seed);
}

std::vector<std::uint64_t> seeds_for(const sim::Scenario& scenario, const RunOptions& options) {
  std::vector<std::uint64_t> all;
  if (options.seed) {
    all.push_back(*options.seed);
  } else if (options.runs) {
    for (std::uint64_t s = 1; s <= *options.runs; ++s) all.push_back(s);
  } else {
    all = scenario.seeds;
  }
  std::vector<std::uint64_t> mine;
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (i % options.shard_count == options.shard_index) mine.push_back(all[i]);
  }
  return mine;
}

ScenarioReport run_scenario(const sim::Scenario& scenario, const RunOptions& options) {
  ScenarioReport report;
  report.scenario = scenario;
  report.seeds_run = seeds_for(scenario, options);
  const auto started = std::chrono::steady_clock::now();

  std::vector<SeedRun> runs(report.seeds_run.size());
  std::atomic<std::size_t> next{0}, done{0};
  std::mutex progress_mutex;
  const unsigned jobs = options.real_backend ? 1u : options.jobs;
  const unsigned workers = std::max(1u, std::min<unsigned>(jobs, static_cast<unsigned>(runs.size())));
  auto work = [&] {
    for (std::size_t index = next++; index < runs.size(); index = next++) {
      runs[index] = run_one(scenario, report.seeds_run[index], options);
      const std::size_t finished = ++done;
      if (options.progress_bar) {
        std::lock_guard lock(progress_mutex);
        show_progress(scenario.name, finished, runs.size(),
                      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
      }
    }
  };
  std::vector<std::thread> threads;
  for (unsigned w = 1; w < workers; ++w) threads.emplace_back(work);
  work();
  for (auto& thread : threads) thread.join();

  for (const SeedRun& run : runs) {
    if (!run.error.empty()) throw std::runtime_error(run.error);
  }
  // Determinism is checked, not assumed: the first seed runs once more and must give the same bytes.
  if (!runs.empty() && !options.real_backend) {
    const SeedRun again = run_one(scenario, runs.front().seed, RunOptions{});
    if (again.hash != runs.front().hash) {
      report.nondeterministic = true;
      report.nondeterminism_detail = fmt::format("seed {} gave two different histories (hash {:016x} then {:016x})",
                                                 runs.front().seed, runs.front().hash, again.hash);
    }
  }
  if (!runs.empty()) report.progress = runs.front().progress;
  for (const SeedRun& run : runs) {
    report.exercise.add(run.exercise);
    for (const std::string& hang : run.client_hangs) report.client_hangs.push_back(fmt::format("seed {}: {}", run.seed, hang));
    if (run.contract_breach && report.script_contract_breach.empty()) {
      report.script_contract_breach = fmt::format("seed {}, {}", run.seed, properties::describe(*run.contract_breach));
    }
  }
  report.hollow = hollow_reasons(scenario, report.exercise);

  for (const SeedRun& run : runs) {
    for (const properties::Verdict& verdict : run.verdicts) {
      PropertyTally& tally = report.tallies[verdict.property];
      ++tally.runs;
      if (auto why = run.unobservable.find(verdict.property); why != run.unobservable.end() && tally.unobservable.empty()) {
        tally.unobservable = why->second;
      }
      if (!verdict.diagnostics.empty() && tally.runs_with_diagnostics++ == 0) {
        tally.first_diagnostic_seed = run.seed;
        tally.first_diagnostic_name = verdict.diagnostics.front().name;
        tally.first_diagnostic = verdict.diagnostics.front().cause;
      }
      if (verdict.outcome == properties::Outcome::unknown && tally.unknown++ == 0) {
        tally.first_unknown_seed = run.seed;
        tally.first_unknown_reason = verdict.summary;
      }
      if (verdict.outcome == properties::Outcome::violated) {
        if (tally.violated++ == 0) {
          tally.first_violating_seed = run.seed;
          tally.first_violation = verdict;
        }
      }
    }
  }

  for (const sim::Expectation& expectation : scenario.expectations) {
    const PropertyTally& tally = report.tallies[expectation.property];
    // A starved claim is judged like holds: every seed must show it (check_starved's verdict).
    const bool starved_expected = expectation.expected == sim::Expectation::Expected::starved;
    const bool holds_expected = expectation.expected == sim::Expectation::Expected::holds || starved_expected;
    if (holds_expected && tally.violated > 0) {
      Mismatch mismatch{expectation.property, expectation.expected, to_string(tally.first_violation),
                        replay_command(scenario, *tally.first_violating_seed), {}, ""};
      if (options.shrink && !options.real_backend && !starved_expected) {
        const shrink::ShrinkResult shrunk =
            shrink::shrink_faults(scenario.config, *tally.first_violating_seed, expectation.property);
        for (const auto& fault : shrunk.faults) {
          mismatch.minimal_faults.push_back(sim::describe(fault));
          mismatch.minimal_faults_toml += "\n" + sim::to_toml(fault);
        }
        if (!shrunk.reproduced) mismatch.minimal_faults.push_back("(the full schedule did not reproduce: nondeterminism?)");
      }
      report.mismatches.push_back(std::move(mismatch));
    } else if (holds_expected && tally.unknown > 0) {
      // `holds` is a claim that every run could have shown a violation and did not: a run that could not
      // judge the property proves nothing, so it never counts as a pass.
      report.mismatches.push_back(Mismatch{
          expectation.property, expectation.expected,
          fmt::format("expected {}, but {} of {} runs could not judge it (unknown), first seed {}: {}",
                      sim::to_string(expectation.expected), tally.unknown, tally.runs, *tally.first_unknown_seed,
                      tally.first_unknown_reason),
          replay_command(scenario, *tally.first_unknown_seed), {}, ""});
    } else if (holds_expected && tally.runs == 0) {
      report.mismatches.push_back(Mismatch{expectation.property, expectation.expected,
                                           fmt::format("expected {}, but no run judged it",
                                                       sim::to_string(expectation.expected)), "", {}, ""});
    } else if (!holds_expected && tally.violated == 0) {
      report.mismatches.push_back(Mismatch{expectation.property, expectation.expected,
                                           fmt::format("expected a violation, but none of {} runs showed one", tally.runs),
                                           replay_command(scenario, report.seeds_run.empty() ? 1 : report.seeds_run.front()), {}, ""});
    }
  }
  report.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return report;
}

}  // namespace lockcheck::cli
