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
#include "model/meta_line.hpp"
#include "corpus.hpp"
#include "explore_json.hpp"
#include "explore_report.hpp"
#include "workload_space.hpp"
#include "find_file.hpp"
#include "known_limit.hpp"
#include "lockcheck/variants/registry.hpp"
#include "scenario/scenario.hpp"
#include "shard.hpp"

namespace lockcheck::cli {
namespace {

// One lock to explore: where it starts and how it is named.
struct Target {
  std::string label;
  sim::RunConfig base;
  bool can_renew = false;
  sim::Scenario::Scripts scripts;  // absolute paths, for the script variant
  std::string reference;           // the scenario's `reference`, if any
  // An external client (explore --client, or a scenario's [client]): its runs are judged on real redis-servers.
  bool client = false;
};

std::vector<Target> targets_of(const ExploreCommandOptions& options) {
  const bool client_alone = !options.client.command.empty() && options.scenario_path.empty();
  const int given = (options.scenario_path.empty() ? 0 : 1) + (options.variant.empty() ? 0 : 1) +
                    (options.script_paths.empty() ? 0 : 1) + (client_alone ? 1 : 0);
  if (given != 1) throw std::invalid_argument("explore wants exactly one of SCENARIO.toml, --variant ID, --scripts and --client");
  std::vector<Target> targets;
  if (client_alone) {
    targets.push_back({"client", {}, false, {}, {}, true});
    return targets;
  }
  if (!options.scenario_path.empty()) {
    const sim::Scenario scenario = sim::load_scenario(options.scenario_path);
    if (!scenario.config.external.command.empty() || !options.client.command.empty()) {
      if (scenario.backend != "redis") throw std::invalid_argument("explore --client runs on real redis-servers: the scenario's backend must be redis");
      targets.push_back({scenario.name, scenario.config, false, {}, scenario.reference, true});
      return targets;
    }
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
std::uint64_t default_budget_runs(const ExploreCommandOptions& options) { return options.variant == "all" ? explore::kDefaultBudgetRunsEach : explore::kDefaultBudgetRuns;
}

struct TargetOutcome {
  Target target;
  explore::ExploreResult result;
  std::vector<explore::WrittenFind> files;        // one per own bug
  std::vector<explore::WrittenFind> limit_files;  // one per known limit met
  double seconds = 0;
  std::vector<std::string> corpus_notes;  // what --corpus loaded and wrote
};

// The search of one shard (the whole search when unsharded): its own seed and its share of the run budget.
explore::ExploreOptions shard_search(const ExploreCommandOptions& options) {
  explore::ExploreOptions search = options.search;
  search.seed = explore::shard_seed(options.search.seed, options.shard);
  search.budget_runs =
      explore::shard_runs(options.budget_runs.value_or(options.budget_seconds ? 0 : default_budget_runs(options)), options.shard);
  return search;
}

TargetOutcome explore_target(const Target& given, const ExploreCommandOptions& options, const std::string& out_dir) {
  explore::ExploreOptions search = shard_search(options);
  Target target = given;
  std::unique_ptr<ClientSession> client;
  if (target.client) {
    client = std::make_unique<ClientSession>(options.client, options.scenario_path.empty() ? std::nullopt : std::optional(target.base), out_dir);
    target.base = client->base();
    target.label = client->label();
    client->configure(search);
  }
  if (search.reference.empty() && !target.client) search.reference = target.reference;
  explore::Explorer explorer(target.base, target.can_renew, search);
  std::size_t corpus_files = 0, corpus_left_out = 0;
  if (!options.corpus_dir.empty()) {
    explore::CorpusLoaded loaded = explore::load_corpus(options.corpus_dir, target.label, target.base);
    corpus_files = loaded.runs.size();
    corpus_left_out = loaded.left_out;
    explorer.resume_from(std::move(loaded.runs));
  }
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
  TargetOutcome outcome{target, explorer.result(), {}, {}, elapsed(), {}};
  if (client) {
    // The client's finds were written (and their files judged) as they were decided.
    for (const explore::Find& find : outcome.result.finds) outcome.files.push_back(client->judge().file_of(find));
    for (const auto& met : outcome.result.limits) outcome.limit_files.push_back(client->judge().file_of(met.example));
    outcome.corpus_notes.push_back(client->cost_summary(outcome.result.runs, outcome.seconds));
    if (outcome.result.not_confirmed > 0) {
      outcome.corpus_notes.push_back(fmt::format("{} violation(s) reproduced fewer than 2 of {} reruns (of twice that, after one): not finds",
                                                 outcome.result.not_confirmed, options.client.confirm_runs));
    }
    return outcome;
  }
  if (!options.corpus_dir.empty()) {
    const explore::CorpusWritten written = explore::write_corpus(explorer.kept_runs(), target.label, options.corpus_dir);
    const std::uint64_t ran = outcome.result.corpus_loaded;
    outcome.corpus_notes.push_back(fmt::format(
        "corpus {}: loaded {} corpus run(s) of {}{}{}{}; wrote {} new kept run(s), {} already there", options.corpus_dir,
        corpus_files, target.label, corpus_files > 0 ? ", run first and resumed from" : " (nothing to resume from yet)",
        ran < corpus_files ? fmt::format(" ({} ran before a find ended the search)", ran) : std::string(),
        corpus_left_out > 0 ? fmt::format(" ({} more left out: at most {} are loaded)", corpus_left_out, explore::kMaxCorpusRuns)
                            : std::string(),
        written.written, written.present));
    for (const std::string& problem : written.problems) outcome.corpus_notes.push_back("corpus: " + problem);
  }
  for (const explore::Find& find : outcome.result.finds) {
    outcome.files.push_back(explore::write_find(find, target.scripts, out_dir));
  }
  for (const auto& met : outcome.result.limits) {
    outcome.limit_files.push_back(explore::write_find(met.example, target.scripts, out_dir));
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
    const std::vector<sim::FaultKind> searched = sim::searched_kinds(outcome.target.base, options.search.without);
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
        return node.eviction != sim::EvictionPolicy::noeviction;
      })) {
    return "no node has an eviction policy";
  }
  return "";
}

explore::FindRecord find_record(const explore::Find& find, const explore::WrittenFind& file, const TargetOutcome& outcome) {
  explore::FindRecord record;
  record.property = find.property;
  record.clause = find.clause;
  record.own_bug = find.own_bug;
  record.cause = find.verdict.cause;
  record.decided_by = find.decided_by;
  record.reference = find.reference;
  record.reference_seed = find.reference_seed;
  record.run = find.run;
  record.seed = find.minimal.seed;
  record.violation_us = find.violation_us;
  record.duration_us = find.minimal.config.duration_us;
  for (const sim::FaultSpec& fault : find.minimal.config.faults) {
    record.schedule.push_back(sim::describe(fault));
    const std::string kind(sim::to_string(fault.kind));
    if (std::find(record.fault_kinds.begin(), record.fault_kinds.end(), kind) == record.fault_kinds.end()) {
      record.fault_kinds.push_back(kind);
    }
  }
  record.story = find.story;
  record.one_minimal = find.one_minimal;
  record.shrink_simulations = find.shrink_simulations;
  // Relative to the explore.json beside it: the folder may move (a CI artifact, another machine).
  // write_find writes into out_dir itself.
  record.file = std::filesystem::path(file.path).filename().generic_string();
  record.reproduced = file.reproduced;
  record.problem = file.problem;
  if (!find.own_bug) {
    if (const auto theory = limit_of(find, outcome)) record.theory = explore::TheoryCase{theory->cases, theory->because, theory->fault};
  }
  return record;
}

explore::LockRecord lock_record(const TargetOutcome& outcome, const ExploreCommandOptions& options) {
  const explore::ExploreResult& result = outcome.result;
  explore::LockRecord record;
  record.lock = outcome.target.label;
  record.runs = result.runs;
  record.corpus_loaded = result.corpus_loaded;
  record.events = result.events;
  record.kept = result.corpus;
  const properties::Exercise& exercise = result.exercise;
  record.exercise = explore::ExerciseRecord{exercise.acquires, exercise.acquired,         exercise.releases,
                                            exercise.renews,   exercise.unknown_outcomes, exercise.faults,
                                            exercise.faults_during_hold};
  for (std::size_t m = 0; m < properties::kMarkCount; ++m) {
    const auto mark = static_cast<properties::Mark>(m);
    const std::int64_t runs = result.runs_reaching[m];
    record.marks.push_back(explore::MarkRecord{std::string(properties::to_string(mark)), runs,
                                               runs > 0 ? std::string() : not_applicable(mark, outcome, options)});
  }
  for (const auto& [first, second] : result.pairs) {
    record.pairs.emplace_back(properties::to_string(static_cast<properties::Mark>(first)),
                              properties::to_string(static_cast<properties::Mark>(second)));
  }
  record.held = result.held;
  for (std::size_t i = 0; i < result.finds.size(); ++i) {
    record.finds.push_back(find_record(result.finds[i], outcome.files[i], outcome));
  }
  for (std::size_t i = 0; i < result.limits.size(); ++i) {
    explore::FindRecord limit = find_record(result.limits[i].example, outcome.limit_files[i], outcome);
    limit.runs = result.limits[i].runs;
    record.limits.push_back(std::move(limit));
  }
  return record;
}

explore::SearchSettings search_settings(const ExploreCommandOptions& options, const std::vector<TargetOutcome>& outcomes) {
  const explore::ExploreOptions search = shard_search(options);
  explore::SearchSettings settings;
  settings.seed = options.search.seed;
  settings.shard_index = options.shard.index;
  settings.shard_count = options.shard.count;
  settings.budget_runs = search.budget_runs;
  settings.budget_seconds = options.budget_seconds.value_or(0);
  settings.strategy = std::string(explore::to_string(options.search.strategy));
  for (const sim::FaultKind kind : options.search.without) settings.without.emplace_back(sim::to_string(kind));
  settings.reference = options.search.reference;
  settings.property = options.search.only_property;
  settings.all_properties = options.search.all_properties;
  for (const TargetOutcome& outcome : outcomes) {
    settings.locks.push_back(outcome.target.label);
    settings.corpus_loaded += outcome.result.corpus_loaded;
  }
  return settings;
}

// What the report's first line says of the search: its settings, then what it did (the wall clock only here:
// explore.json holds nothing that differs between two machines).
std::string report_header(const TargetOutcome& outcome, const ExploreCommandOptions& options) {
  const explore::ExploreResult& result = outcome.result;
  return fmt::format("{}, seed {}{}, {} runs{} in {:.1f}s, {:.1f} runs/s, {} events", explore::to_string(options.search.strategy),
                     options.search.seed,
                     options.shard.sharded() ? fmt::format(", shard {}/{}", options.shard.index, options.shard.count) : "",
                     result.runs,
                     result.corpus_loaded > 0 ? fmt::format(" ({} of them resumed from the corpus)", result.corpus_loaded) : "",
                     outcome.seconds, outcome.seconds > 0 ? static_cast<double>(result.runs) / outcome.seconds : 0.0,
                     result.events);
}

void check_usage(const ExploreCommandOptions& options) {
  if (options.shard.count == 0 || options.shard.index >= options.shard.count) {
    throw std::invalid_argument(fmt::format("--shard wants i/n with 0 <= i < n, got {}/{}", options.shard.index, options.shard.count));
  }
  if (!options.corpus_dir.empty() && !options.client.command.empty()) {
    throw std::invalid_argument("--corpus is for simulated runs: a client's runs are judged in real time, and not kept");
  }
  if (!options.corpus_dir.empty() && options.search.strategy != explore::Strategy::guided) {
    throw std::invalid_argument("--corpus needs the guided strategy: only guided keeps runs to resume from");
  }
  shard_search(options);  // a run budget too small for the shards: said before any run
}

}  // namespace

int command_explore(const ExploreCommandOptions& given) {
  check_usage(given);
  const std::vector<Target> targets = targets_of(given);
  ExploreCommandOptions options = given;
  // A client's runs take real time: its default budget is ten minutes, not a run count.
  if (targets.front().client && !options.budget_runs && !options.budget_seconds) options.budget_seconds = 600;
  // A shard's files go into a folder of its own, so that the shards of a search may share an --out.
  const std::string explored = targets.size() == 1 ? targets.front().label : options.variant;
  const std::string out_dir =
      options.shard.sharded() ? path_in(options.out_dir, explore::shard_folder_name(options.shard, explored, options.search.seed))
                              : options.out_dir;
  std::vector<TargetOutcome> outcomes;
  std::vector<explore::LockRecord> records;
  bool found = false;
  for (const Target& target : targets) {
    outcomes.push_back(explore_target(target, options, out_dir));
    records.push_back(lock_record(outcomes.back(), options));
    ReportFiles files{out_dir, "wrote", {}};
    if (target.client) files = ReportFiles{out_dir, "wrote", {}, "lockcheck judge", "judged runs"};
    print_lock_report(records.back(), report_header(outcomes.back(), options), outcomes.back().corpus_notes, files);
    std::fflush(stdout);
    found = found || !outcomes.back().result.finds.empty();
  }
  std::filesystem::create_directories(out_dir);
  if (targets.size() > 1) {
    const std::string path = path_in(out_dir, "profile.md");
    const std::string how = fmt::format(
        "`lockcheck explore --variant all --all-properties --seed {} --budget-runs {}{}` ({} search)", options.search.seed,
        options.budget_runs.value_or(0),
        options.shard.sharded() ? fmt::format(" --shard {}/{}", options.shard.index, options.shard.count) : "",
        explore::to_string(options.search.strategy));
    std::ofstream(path) << profile_markdown(records, how);
    std::printf("\nwrote %s\n", path.c_str());
  }
  const explore::ExploreDocument document{{search_settings(options, outcomes)}, records};
  const std::string json_path = path_in(out_dir, std::string(explore::kExploreJsonName));
  std::ofstream(json_path) << explore_json(document);
  std::printf("%swrote %s%s\n", targets.size() > 1 ? "" : "\n", json_path.c_str(),
              options.shard.sharded() ? fmt::format(" (shard {}/{}; `lockcheck merge` unites the shards)", options.shard.index,
                                                    options.shard.count).c_str()
                                      : "");
  return found ? 1 : 0;
}

}  // namespace lockcheck::cli
