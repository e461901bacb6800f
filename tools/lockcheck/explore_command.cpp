#include "explore_command.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <algorithm>
#include <map>
#include <stdexcept>

#include "compare_plan.hpp"
#include "core/meta_line.hpp"
#include "fault_space.hpp"
#include "find_file.hpp"
#include "known_limit.hpp"
#include "lockcheck/variants/registry.hpp"
#include "scenario/scenario.hpp"

namespace lockcheck::cli {
namespace {

// One lock to explore: where it starts and how it is named.
struct Target {
  std::string label;
  sim::SimConfig base;
  bool can_renew = false;
  sim::Scenario::Scripts scripts;  // absolute paths, for the script variant
  std::string reference;           // the scenario's `reference`, if any
};

std::vector<Target> targets_of(const ExploreCommandOptions& options) {
  const int given = (options.scenario_path.empty() ? 0 : 1) + (options.variant.empty() ? 0 : 1) +
                    (options.script_paths.empty() ? 0 : 1);
  if (given != 1) throw std::invalid_argument("explore wants exactly one of SCENARIO.toml, --variant ID and --scripts");
  std::vector<Target> targets;
  if (!options.scenario_path.empty()) {
    const sim::Scenario scenario = sim::load_scenario(options.scenario_path);
    if (scenario.backend != "mock") throw std::invalid_argument("explore runs on the simulator: the scenario's backend must be mock");
    const bool has_renew = !scenario.scripts.renew.empty();
    targets.push_back({scenario.name, scenario.config, watchdog_refusal(scenario.config.variant, has_renew).empty(), scenario.scripts,
                       scenario.reference});
    return targets;
  }
  if (!options.script_paths.empty()) {
    Target target{"script", explore::explore_base_for_variant("script"), false, {}, {}};
    target.base.scripts = compare::read_scripts(options.script_paths);  // checks each against the contract
    const auto absolute = [](const std::string& path) { return std::filesystem::absolute(path).generic_string(); };
    target.scripts = {absolute(options.script_paths[0]), absolute(options.script_paths[1]),
                      options.script_paths.size() > 2 ? absolute(options.script_paths[2]) : ""};
    target.can_renew = !target.scripts.renew.empty();
    targets.push_back(std::move(target));
    return targets;
  }
  std::vector<std::string> variants;
  if (options.variant == "all") {
    for (const std::string& id : variant_ids()) {
      if (id != "script") variants.push_back(id);
    }
  } else {
    const auto& ids = variant_ids();
    if (std::find(ids.begin(), ids.end(), options.variant) == ids.end()) {
      throw std::invalid_argument(fmt::format("unknown variant '{}'; known: all, {}", options.variant, fmt::join(ids, ", ")));
    }
    if (options.variant == "script") throw std::invalid_argument("--variant script needs the scripts: use --scripts acquire.lua,release.lua[,renew.lua]");
    variants.push_back(options.variant);
  }
  for (const std::string& id : variants) {
    targets.push_back({id, explore::explore_base_for_variant(id), watchdog_refusal(id, false).empty(), {}, {}});
  }
  return targets;
}

// One lock (your scripts, a scenario, a variant): 2,000 runs, enough for a bug that needs a crash after a renewal
// (explore_bench: the user-script corpus by defaults). The whole catalogue: 300 runs per lock.
std::uint64_t default_budget_runs(const ExploreCommandOptions& options) { return options.variant == "all" ? 300 : 2000; }

std::string milliseconds(std::int64_t us) { return fmt::format("{}.{:03}s", us / 1000000, us / 1000 % 1000); }

struct TargetOutcome {
  Target target;
  explore::ExploreResult result;
  std::vector<explore::WrittenFind> files;        // one per own bug
  std::vector<explore::WrittenFind> limit_files;  // one per known limit met
  double seconds = 0;
};

TargetOutcome explore_target(const Target& target, const ExploreCommandOptions& options) {
  explore::ExploreOptions search = options.search;
  if (search.reference.empty()) search.reference = target.reference;
  search.budget_runs = options.budget_runs.value_or(options.budget_seconds ? 0 : default_budget_runs(options));
  explore::Explorer explorer(target.base, target.can_renew, search);
  const auto start = std::chrono::steady_clock::now();
  auto last_progress = start;
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  while (explorer.step()) {
    if (options.budget_seconds && elapsed() >= *options.budget_seconds) break;
    if (options.progress && std::chrono::steady_clock::now() - last_progress >= std::chrono::seconds(2)) {
      last_progress = std::chrono::steady_clock::now();
      const auto& so_far = explorer.result();
      std::size_t marks = 0;
      for (const auto count : so_far.runs_reaching) marks += count > 0 ? 1 : 0;
      std::fflush(stdout);
      std::fprintf(stderr, "explore %s: %llu runs, %.1f runs/s, %zu/%zu marks, %zu pairs, %zu find(s)\n", target.label.c_str(),
                   static_cast<unsigned long long>(so_far.runs), static_cast<double>(so_far.runs) / elapsed(), marks,
                   properties::kMarkCount, so_far.pairs.size(), so_far.finds.size());
    }
  }
  TargetOutcome outcome{target, explorer.result(), {}, {}, elapsed()};
  for (const explore::Find& find : outcome.result.finds) {
    outcome.files.push_back(explore::write_find(find, target.scripts, options.out_dir));
  }
  for (const auto& met : outcome.result.limits) {
    outcome.limit_files.push_back(explore::write_find(met.example, target.scripts, options.out_dir));
  }
  return outcome;
}

// The theory case that words a known limit (known_limit.hpp): never what decides it (reference.hpp does).
std::optional<explore::KnownLimit> limit_of(const explore::Find& find, const TargetOutcome& outcome) {
  return explore::known_limit(find.property, find.minimal.config.faults, outcome.target.base.workload.fencing,
                              find.verdict.tags);
}

// The fault kinds without which a mark cannot be reached (empty: it needs none in particular).
std::vector<sim::FaultKind> kinds_feeding(properties::Mark mark) {
  using properties::Mark;
  using sim::FaultKind;
  switch (mark) {
    case Mark::resumed_after_validity:
    case Mark::renewal_across_pause:
    case Mark::pause_during_hold: return {FaultKind::pause};
    case Mark::failover_lost_lock_key: return {FaultKind::failover, FaultKind::node_crash, FaultKind::split_brain};
    case Mark::clock_jump_while_held: return {FaultKind::client_clock_jump, FaultKind::node_clock_jump};
    case Mark::waiter_when_holder_died: return {FaultKind::crash};
    case Mark::partition_during_hold: return {FaultKind::partition};
    case Mark::node_fault_during_hold: return {FaultKind::node_crash, FaultKind::failover, FaultKind::split_brain};
    case Mark::lock_key_evicted: return {FaultKind::evict};
    default: return {};
  }
}

// Why a mark cannot be reached by this lock at all (then it is no blind spot), or "".
std::string not_applicable(properties::Mark mark, const TargetOutcome& outcome, const ExploreCommandOptions& options) {
  using properties::Mark;
  const std::vector<sim::FaultKind> feeding = kinds_feeding(mark);
  if (!feeding.empty()) {
    const std::vector<sim::FaultKind> searched = explore::searched_kinds(outcome.target.base, options.search.without);
    const bool any_searched = std::any_of(feeding.begin(), feeding.end(), [&](sim::FaultKind kind) {
      return std::find(searched.begin(), searched.end(), kind) != searched.end();
    });
    if (!any_searched) {
      std::vector<std::string_view> names;
      for (const sim::FaultKind kind : feeding) names.push_back(sim::to_string(kind));
      return fmt::format("its faults are not searched: {}", fmt::join(names, ", "));
    }
  }
  const properties::Exercise& exercise = outcome.result.exercise;
  if ((mark == Mark::renewal_across_pause || mark == Mark::renewal_lost) && exercise.renews == 0) {
    return "the lock never renews";
  }
  if (mark == Mark::reentrant_expiry && outcome.target.base.workload.nest_every == 0) return "the lock is not nested";
  const auto& nodes = outcome.target.base.nodes;
  if (mark == Mark::lock_key_evicted && std::none_of(nodes.begin(), nodes.end(), [](const sim::NodeConfig& node) {
        return node.eviction != mock::EvictionPolicy::noeviction;
      })) {
    return "no node has an eviction policy";
  }
  return "";
}

void print_outcome(const TargetOutcome& outcome, const ExploreCommandOptions& options) {
  const explore::ExploreResult& result = outcome.result;
  std::printf("\nexplore %s  (%s, seed %llu, %llu runs in %.1fs, %.1f runs/s, %llu events)\n", outcome.target.label.c_str(),
              std::string(explore::to_string(options.search.strategy)).c_str(),
              static_cast<unsigned long long>(options.search.seed), static_cast<unsigned long long>(result.runs),
              outcome.seconds, outcome.seconds > 0 ? static_cast<double>(result.runs) / outcome.seconds : 0.0,
              static_cast<unsigned long long>(result.events));
  if (result.finds.empty()) std::printf("  no bug of the lock's own found within the budget\n");
  for (std::size_t i = 0; i < result.finds.size(); ++i) {
    const explore::Find& find = result.finds[i];
    const explore::WrittenFind& file = outcome.files[i];
    std::printf("  FOUND %s violated: the lock's own bug (run %llu, seed %llu, at t=%s)\n    %s\n", find.property.c_str(),
                static_cast<unsigned long long>(find.run), static_cast<unsigned long long>(find.minimal.seed),
                milliseconds(find.violation_us).c_str(), find.verdict.cause.c_str());
    std::printf("    own bug: %s\n", find.decided_by.c_str());
    if (!find.story.empty()) std::printf("    what happened:\n");
    for (const std::string& sentence : find.story) std::printf("      - %s\n", sentence.c_str());
    std::printf("    minimal schedule (%zu fault(s), %s, %d simulations to shrink):\n", find.minimal.config.faults.size(),
                find.one_minimal ? "each needed" : "NOT 1-minimal: the shrink budget ran out", find.shrink_simulations);
    for (const sim::FaultSpec& fault : find.minimal.config.faults) std::printf("      %s\n", sim::describe(fault).c_str());
    if (file.reproduced) {
      std::printf("    wrote %s\n    replay: lockcheck run %s\n", file.path.c_str(), file.path.c_str());
    } else {
      std::printf("    wrote %s, but it does NOT reproduce: %s\n", file.path.c_str(), file.problem.c_str());
    }
  }
  if (!result.limits.empty()) {
    std::printf("  known limits met (the fault model breaks every lock of this kind so; not the lock's bug):\n");
  }
  for (std::size_t i = 0; i < result.limits.size(); ++i) {
    const explore::Find& example = result.limits[i].example;
    std::vector<std::string> kinds;
    for (const sim::FaultSpec& fault : example.minimal.config.faults) {
      const std::string kind(sim::to_string(fault.kind));
      if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) kinds.push_back(kind);
    }
    const auto theory = limit_of(example, outcome);
    std::printf("    %s in %lld run(s): %s; theory: %s\n", example.property.c_str(),
                static_cast<long long>(result.limits[i].runs), kinds.empty() ? "no fault" : fmt::format("{}", fmt::join(kinds, ", ")).c_str(),
                theory ? fmt::format("{} ({})", theory->cases, theory->because).c_str() : "no case names it");
    std::printf("      %s\n", example.decided_by.c_str());
    std::printf("      e.g. %s (%s)\n", outcome.limit_files[i].path.c_str(),
                theory && !theory->fault.empty() ? ("--without " + theory->fault + " leaves it out").c_str()
                                                  : "check the lease before writing (--check-lease), or fence the resource");
  }
  std::printf("  held (runs that judged it and saw no violation):");
  for (const auto& [property, runs] : result.held) std::printf(" %s %lld;", property.c_str(), static_cast<long long>(runs));
  std::printf("\n  exercised: %lld acquires (%lld granted), %lld releases, %lld renewals, %lld unknown outcomes, "
              "%lld faults (%lld while the lock was held)\n",
              static_cast<long long>(result.exercise.acquires), static_cast<long long>(result.exercise.acquired),
              static_cast<long long>(result.exercise.releases), static_cast<long long>(result.exercise.renews),
              static_cast<long long>(result.exercise.unknown_outcomes), static_cast<long long>(result.exercise.faults),
              static_cast<long long>(result.exercise.faults_during_hold));
  std::printf("  marks (runs that reached each; %zu pairs; %zu runs kept for mutation):\n", result.pairs.size(), result.corpus);
  for (std::size_t m = 0; m < properties::kMarkCount; ++m) {
    const auto mark = static_cast<properties::Mark>(m);
    const std::int64_t runs = result.runs_reaching[m];
    const std::string why_not = not_applicable(mark, outcome, options);
    const char* label = runs > 0 ? "" : why_not.empty() ? "BLIND SPOT: " : "";
    std::printf("    %-26s %8s  %s%s%s\n", std::string(properties::to_string(mark)).c_str(),
                runs > 0 ? std::to_string(runs).c_str() : why_not.empty() ? "never" : "n/a", label,
                std::string(properties::describe(mark)).c_str(),
                runs == 0 && !why_not.empty() ? fmt::format(" ({})", why_not).c_str() : "");
  }
}

// The catalogue's fault profile: for each (variant, property) the minimal fault that breaks it, or how many
// runs it held in. Written by `explore --variant all --all-properties`.
std::string profile_markdown(const std::vector<TargetOutcome>& outcomes, const ExploreCommandOptions& options) {
  std::string text = fmt::format(
      "# Fault profile of the catalogue (generated)\n\n`lockcheck explore --variant all --all-properties --seed {} "
      "--budget-runs {}` ({} search). Each cell: the minimal fault schedule explore found that violates the property, "
      "or `held (N)`: N runs judged it and none violated it; `-`: no run could judge it. An own bug is one the "
      "reference lock of the variant's kind keeps under the same schedule; a \"known limit\" one it breaks too "
      "(tools/explore/reference.hpp), with its theory case where one names it. explore writes every find as a "
      "scenario file into its --out directory.\n\n| variant |",
      options.search.seed, options.budget_runs.value_or(0), explore::to_string(options.search.strategy));
  for (const std::string_view property : sim::kExpectableProperties) text += fmt::format(" {} |", property);
  text += "\n|---|";
  for (std::size_t i = 0; i < std::size(sim::kExpectableProperties); ++i) text += "---|";
  text += "\n";
  for (const TargetOutcome& outcome : outcomes) {
    text += fmt::format("| {} |", outcome.target.label);
    for (const std::string_view property : sim::kExpectableProperties) {
      std::string cell = "-";
      const auto held = outcome.result.held.find(std::string(property));
      if (held != outcome.result.held.end()) cell = fmt::format("held ({})", held->second);
      const auto schedule = [](const explore::Find& find) {
        std::vector<std::string> faults;
        for (const sim::FaultSpec& fault : find.minimal.config.faults) faults.push_back(sim::describe(fault));
        return faults.empty() ? std::string("no fault") : fmt::format("{}", fmt::join(faults, "; "));
      };
      for (const auto& met : outcome.result.limits) {
        if (met.example.property != property) continue;
        const auto limit = limit_of(met.example, outcome);
        cell = fmt::format("known limit ({}, {} runs): {}{}", limit ? limit->cases : "reference breaks too", met.runs,
                           schedule(met.example), held != outcome.result.held.end() ? fmt::format("; held ({})", held->second) : "");
      }
      for (const explore::Find& find : outcome.result.finds) {
        if (find.property == property) cell = fmt::format("**violated (own bug)**: {}", schedule(find));
      }
      text += fmt::format(" {} |", cell);
    }
    text += "\n";
  }
  return text;
}

}  // namespace

int command_explore(const ExploreCommandOptions& options) {
  const std::vector<Target> targets = targets_of(options);
  std::vector<TargetOutcome> outcomes;
  bool found = false;
  for (const Target& target : targets) {
    outcomes.push_back(explore_target(target, options));
    print_outcome(outcomes.back(), options);
    std::fflush(stdout);
    found = found || !outcomes.back().result.finds.empty();
  }
  if (targets.size() > 1) {
    std::filesystem::create_directories(options.out_dir);
    const std::string path = (std::filesystem::path(options.out_dir) / "profile.md").generic_string();
    std::ofstream(path) << profile_markdown(outcomes, options);
    std::printf("\nwrote %s\n", path.c_str());
  }
  return found ? 1 : 0;
}

}  // namespace lockcheck::cli
