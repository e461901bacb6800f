#include "client_explore.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <thread>

#include "client_link_delay.hpp"
#include "lockcheck/assert.hpp"
#include "nemesis/fault_space.hpp"
#include "known_limit.hpp"
#include "shrink.hpp"  // tools/shrink

namespace lockcheck::explore {
namespace {

constexpr std::int64_t kClientTtlMs = 500;
constexpr std::int64_t kClientRunMs = 4000;

// A fault and the faults that end it (a crash's restart, a partition's heal, a loss's or a slow node's end): one
// unit for shrinking, removed together.
std::vector<std::vector<sim::FaultSpec>> units_of(const std::vector<sim::FaultSpec>& faults) {
  std::vector<std::vector<sim::FaultSpec>> units;
  std::vector<bool> taken(faults.size(), false);
  for (std::size_t i = 0; i < faults.size(); ++i) {
    if (taken[i]) continue;
    taken[i] = true;
    std::vector<sim::FaultSpec> unit{faults[i]};
    const sim::FaultSpec& fault = faults[i];
    // A loss or slow node of nothing is itself the end of one.
    const bool has_end = !sim::is_own_kind_end(fault);
    for (std::size_t j = i + 1; has_end && j < faults.size(); ++j) {
      if (!taken[j] && sim::ends(faults[j], fault)) {
        taken[j] = true;
        unit.push_back(faults[j]);
        break;
      }
    }
    units.push_back(std::move(unit));
  }
  return units;
}

std::vector<sim::FaultSpec> joined(const std::vector<std::vector<sim::FaultSpec>>& units) {
  std::vector<sim::FaultSpec> faults;
  for (const auto& unit : units) faults.insert(faults.end(), unit.begin(), unit.end());
  normalize(faults);
  return faults;
}

// The kinds whose known limits are the server's (it lost or expired the grant), not the client's: those the
// timeline draws on a node's lane.
bool server_side_fault(const std::string& name) {
  const std::optional<sim::FaultKind> kind = sim::fault_kind_named(name);
  return kind && sim::fault_row(*kind).lane == sim::FaultLane::node;
}

// The faults, and the link delays drawn beyond `base`'s links.
std::string schedule_text(const sim::RunConfig& config, const sim::RunConfig& base) {
  std::vector<std::string> lines = describe_link_delays(base, config);
  for (const sim::FaultSpec& fault : config.faults) lines.push_back(sim::describe(fault));
  return lines.empty() ? std::string("no fault") : fmt::format("{}", fmt::join(lines, "; "));
}

// The same schedule: faults, clients and links (a shrunk plan differs from the plan as found in one of them).
bool same_schedule(const sim::RunConfig& a, const sim::RunConfig& b) {
  return a.faults == b.faults && a.clients.size() == b.clients.size() && same_links(a, b);
}

// "<client>-<property>" (and "-known-limit"): the scenario's name and, with .toml, its file's.
std::string find_stem(const std::string& label, const std::string& property, bool own_bug) {
  return fmt::format("{}-{}{}", label, property, own_bug ? "" : "-known-limit");
}

}  // namespace

sim::RunConfig client_base(bool renews) {
  sim::RunConfig config = explore_base_for_variant("token");
  // The comparison's workload is for a 1 s TTL; real time is the cost, so everything is halved with it.
  const std::int64_t scale_permille = kClientTtlMs * 1000 / config.lock.ttl.count();
  const auto scaled = [&](std::int64_t us) { return std::max<std::int64_t>(1000, us * scale_permille / 1000 / 1000 * 1000); };
  config.lock.ttl = Millis(kClientTtlMs);
  config.duration_us = kClientRunMs * 1000;
  sim::WorkloadConfig& workload = config.workload;
  workload.hold_min_us = scaled(workload.hold_min_us);
  workload.hold_max_us = scaled(workload.hold_max_us);
  workload.think_min_us = scaled(workload.think_min_us);
  workload.think_max_us = scaled(workload.think_max_us);
  workload.wait_us = scaled(workload.wait_us);
  if (renews) {
    // As a lock that renews in the background: holds past the TTL are where its renewal shows (fault_space.hpp).
    workload.hold_max_us = 3 * kClientTtlMs * 1000;
    workload.hold_min_us = workload.hold_max_us / 2;
    workload.wait_us = std::max(workload.wait_us, workload.hold_max_us + kClientTtlMs * 1000);
  }
  return config;
}

ClientReference client_reference_for(const sim::RunConfig& base) {
  // On a [cluster] or a [sentinel] the Mutex adapter is a cluster or Sentinel client (lockcheck::ClusterNodes,
  // SentinelNodes): a lock on one master, whatever the count of masters.
  if (base.cluster.shards > 0 || base.sentinel.sentinels > 0) return ClientReference{"lockcheck_judge_mutex", "Mutex", ""};
  if (sim::master_nodes(base).size() > 1) return ClientReference{"lockcheck_judge_redlock", "RedlockMutex", "", true};
  return ClientReference{"lockcheck_judge_mutex", "Mutex", ""};
}

std::vector<sim::FaultKind> kinds_not_real(const sim::RunConfig& base, bool (*supported)(sim::FaultKind)) {
  std::vector<sim::FaultKind> out;
  const bool sentinel = base.sentinel.sentinels > 0;
  for (const sim::FaultKind kind : applicable_kinds(base)) {
    const bool refused_on_sentinel = sentinel && !sim::fault_row(kind).on_redis_sentinel;
    if (!supported(kind) || refused_on_sentinel) out.push_back(kind);
  }
  return out;
}

bool probe_renews(const ClientRunner& runner, const ClientSpec& client, const sim::RunConfig& base) {
  RunPlan probe;
  probe.config = base;
  probe.config.faults.clear();
  probe.config.nemesis = sim::NemesisConfig{};
  probe.config.clients = std::vector<sim::ClientConfig>(2);
  const std::int64_t ttl_us = base.lock.ttl.count() * 1000;
  probe.config.workload.hold_min_us = probe.config.workload.hold_max_us = 3 * ttl_us;
  probe.config.workload.wait_us = 5 * ttl_us;
  probe.config.duration_us = std::max<std::int64_t>(base.duration_us, 8 * ttl_us);
  probe.seed = 1;
  const ClientRunResult run = runner.run(probe, client, probe.seed);
  const shrink::Judged judged = shrink::judge_history(run.history, "mutual_exclusion_client");
  return !judged.violated() && run.outcome.exercise.acquired >= 2;
}

ClientFindJudge::Tally ClientFindJudge::rerun(const RunPlan& plan, const ClientSpec& client, const std::string& property, int runs,
                                              const std::function<bool(int, int)>& enough,
                                              std::map<std::string, Tally>* every_property) const {
  Tally tally;
  std::mutex guard;
  std::atomic<int> next{0};
  std::exception_ptr error;
  bool settled = false;
  const auto work = [&] {
    for (int i = next++; i < runs; i = next++) {
      {
        std::lock_guard lock(guard);
        if (settled || error) return;
      }
      const std::uint64_t seed = plan.seed + static_cast<std::uint64_t>(i);
      try {
        ClientRunResult run;
        try {
          run = runner_.run(plan, client, seed);
        } catch (const std::runtime_error& error) {
          // A run the judge could not make (a client that died before it was ready, on a loaded machine) is no run:
          // it neither reproduces nor refutes. The search's own runs stop on three in a row.
          std::fprintf(stderr, "explore %s: a rerun (seed %llu) could not be judged, left out: %s\n", settings_.label.c_str(),
                       static_cast<unsigned long long>(seed), error.what());
          continue;
        }
        const auto add = [&](Tally& to, const shrink::Judged& judged) {
          ++to.runs;
          if (judged.violated() && to.violated++ == 0) {
            to.first_seed = seed;
            to.verdict = judged.verdict;
            to.violation_us = judged.violation_us;
          }
        };
        const shrink::Judged judged = shrink::judge_history(run.history, property);
        std::lock_guard lock(guard);
        add(tally, judged);
        if (every_property != nullptr) {
          for (const std::string_view other : sim::kExpectableProperties) {
            add((*every_property)[std::string(other)], shrink::judge_history(run.history, std::string(other)));
          }
        }
        settled = settled || enough(tally.violated, tally.runs);
      } catch (...) {
        std::lock_guard lock(guard);
        if (!error) error = std::current_exception();
      }
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < std::min<unsigned>(settings_.parallel, static_cast<unsigned>(runs)); ++t) threads.emplace_back(work);
  work();
  for (auto& thread : threads) thread.join();
  if (error) std::rethrow_exception(error);
  return tally;
}

std::string client_evidence(int confirmed_violated, int confirmed_runs, int file_violated, int file_runs) {
  LOCKCHECK_ASSERT(confirmed_violated > 0 && confirmed_violated <= confirmed_runs && file_violated <= file_runs);
  const std::string as_found = fmt::format("{} of {} reruns as found", confirmed_violated, confirmed_runs);
  if (file_violated == 0) return fmt::format("{} (the written file's {} runs: none)", as_found, file_runs);
  return fmt::format("{}, {} of {} runs of the written file", as_found, file_violated, file_runs);
}

Confirmation confirmation_after(int violated, int runs, const ClientSearchSettings& settings) {
  if (violated >= settings.min_reproductions) return Confirmation::confirmed;
  const bool one_short = violated > 0 && violated + 1 == settings.min_reproductions;
  return one_short && runs <= settings.confirm_runs ? Confirmation::rerun_more : Confirmation::not_a_find;
}

ClientFindJudge::Tally ClientFindJudge::confirm(const Find& find, const std::string& property) {
  const auto never_settled = [](int, int) { return false; };
  std::map<std::string, Tally>& cached = confirmed_[find.run];
  if (cached.empty()) rerun(find.plan, settings_.client, property, settings_.confirm_runs, never_settled, &cached);
  const Tally first = cached[property];
  if (confirmation_after(first.violated, first.runs, settings_) != Confirmation::rerun_more) return first;
  std::fprintf(stderr, "explore %s: run %llu's %s violation reproduced %d of %d reruns: %d more\n", settings_.label.c_str(),
               static_cast<unsigned long long>(find.run), property.c_str(), first.violated, first.runs, settings_.confirm_runs);
  RunPlan later = find.plan;
  later.seed += static_cast<std::uint64_t>(settings_.confirm_runs);  // the next seeds: no rerun repeats one
  std::map<std::string, Tally> more;
  rerun(later, settings_.client, property, settings_.confirm_runs, never_settled, &more);
  for (auto& [name, tally] : more) add_to(cached[name], tally);
  return cached[property];
}

bool ClientFindJudge::reproduces(const RunPlan& plan, const std::string& property, int refuted_after, int& spent) const {
  const int need = settings_.min_reproductions, runs = settings_.confirm_runs;
  const Tally tally = rerun(plan, settings_.client, property, runs, [&](int violated, int finished) {
    return violated >= need || violated + (runs - finished) < need || finished - violated >= refuted_after;
  });
  spent += tally.runs;
  return tally.violated >= need;
}

bool ClientFindJudge::shrink(Find& find, int reproduced, int& spent) const {
  // Misses in a row that a schedule reproducing at the confirmed rate shows with probability under 5%.
  const double rate = static_cast<double>(std::max(1, reproduced)) / settings_.confirm_runs;
  const int refuted_after =
      rate >= 1.0 ? 1 : std::clamp(static_cast<int>(std::ceil(std::log(0.05) / std::log(1.0 - rate))), 1, settings_.confirm_runs);
  bool one_minimal = false;
  // ddmin over fault units: drop chunks of halves, then quarters, ... then single units, each drop kept only
  // while the schedule still reproduces; bounded by shrink_runs judged runs.
  RunPlan& minimal = find.minimal;
  // A drawn link delay (client_link_delay.hpp) is one unit too, tried first: the runs after are quicker without it.
  bool delay_settled = delayed_processes(settings_.base, minimal.config).empty();
  if (!delay_settled && spent < settings_.shrink_runs) {
    RunPlan candidate = minimal;
    drop_link_delays(settings_.base, candidate.config);
    if (reproduces(candidate, find.selector(), refuted_after, spent)) minimal = std::move(candidate);
    delay_settled = true;
  }
  auto units = units_of(minimal.config.faults);
  for (std::size_t chunks = 2; !units.empty() && spent < settings_.shrink_runs;) {
    const std::size_t size = std::max<std::size_t>(1, units.size() / std::min(chunks, units.size()));
    bool dropped = false;
    for (std::size_t start = 0; start < units.size() && spent < settings_.shrink_runs; start += size) {
      auto candidate_units = units;
      candidate_units.erase(candidate_units.begin() + static_cast<std::ptrdiff_t>(start),
                            candidate_units.begin() + static_cast<std::ptrdiff_t>(std::min(units.size(), start + size)));
      RunPlan candidate = minimal;
      candidate.config.faults = joined(candidate_units);
      if (reproduces(candidate, find.selector(), refuted_after, spent)) {
        units = std::move(candidate_units);
        minimal = std::move(candidate);
        dropped = true;
        break;
      }
    }
    if (dropped) continue;  // again at the same granularity
    if (size == 1) {        // 1-minimal within the budget
      one_minimal = spent < settings_.shrink_runs;
      break;
    }
    chunks *= 2;
  }
  if (units.empty()) one_minimal = true;
  one_minimal = one_minimal && delay_settled;
  // Fewer clients, down to two and never below a client a fault or a link delay names.
  int named = -1;
  for (const sim::FaultSpec& fault : minimal.config.faults) named = std::max(named, fault.process);
  for (const int process : delayed_processes(settings_.base, minimal.config)) named = std::max(named, process);
  while (spent < settings_.shrink_runs && minimal.config.clients.size() > std::max<std::size_t>(2, static_cast<std::size_t>(named + 1))) {
    RunPlan candidate = minimal;
    candidate.config.clients.pop_back();
    if (!reproduces(candidate, find.selector(), refuted_after, spent)) break;
    minimal = std::move(candidate);
  }
  return one_minimal;
}

ClientSpec ClientFindJudge::reference_client() const {
  ClientSpec reference{{settings_.reference_program}, {}};
  // A client that renews by itself is compared with the reference renewing by its watchdog, whose `use`
  // declines once the lease is lost (as redis-semaphore's isAcquired).
  if (settings_.renews) reference.command.push_back("--watchdog");
  return reference;
}

std::string ClientFindJudge::reference_name() const {
  // By its file name: reports and explore.json name no path of the machine.
  std::string name = std::filesystem::path(settings_.reference_program).filename().string();
  if (settings_.renews) name += " --watchdog";
  return name;
}

bool ClientFindJudge::client_is_reference() const {
  if (settings_.reference_program.empty()) return false;
  return std::any_of(settings_.client.command.begin(), settings_.client.command.end(), [&](const std::string& word) {
    return std::filesystem::path(word).filename() == std::filesystem::path(settings_.reference_program).filename();
  });
}

int ClientFindJudge::reference_runs(int reproduced) const {
  const int runs = settings_.confirm_runs;
  if (reproduced >= runs) return runs;
  const double rate = static_cast<double>(std::max(1, reproduced)) / runs;
  const int needed = static_cast<int>(std::ceil(std::log(0.05) / std::log(1.0 - rate)));
  return std::clamp(needed, runs, 20);
}

void ClientFindJudge::add_to(Tally& to, const Tally& more) {
  if (to.violated == 0 && more.violated > 0) {
    to.first_seed = more.first_seed;
    to.verdict = more.verdict;
    to.violation_us = more.violation_us;
  }
  to.runs += more.runs;
  to.violated += more.violated;
}

ClientFindJudge::Tally ClientFindJudge::reference_on(const Find& find, const RunPlan& plan, int runs) {
  const std::string property = find.selector();
  // On the schedule as found, the reference's runs serve every property the run broke, and later calls add runs
  // (on the next seeds) to the earlier ones.
  const bool as_found = same_schedule(plan.config, find.plan.config);
  if (!as_found) return rerun(plan, reference_client(), property, runs, [](int violated, int) { return violated > 0; });
  std::map<std::string, Tally>& cached = referenced_[find.run];
  Tally& mine = cached[property];
  if (mine.violated > 0 || mine.runs >= runs) return mine;
  RunPlan next = plan;
  next.seed += static_cast<std::uint64_t>(mine.runs);
  std::map<std::string, Tally> more;
  rerun(next, reference_client(), property, runs - mine.runs, [](int violated, int) { return violated > 0; }, &more);
  for (const auto& [name, tally] : more) add_to(cached[name], tally);
  return cached[property];
}

FindDecision ClientFindJudge::judge(Find& find) {
  const std::string property = find.selector();
  ClientFindRecord record;
  record.property = property;
  record.run = find.run;
  // The theory decides when no reference lock runs on this deployment, or when the client is the reference itself.
  const bool theory = settings_.reference_program.empty() || client_is_reference();
  const std::string theory_because = settings_.reference_program.empty()
                                         ? settings_.reference.none_because
                                         : fmt::format("the client is {} itself", reference_lock());
  find.reference = theory ? "" : std::filesystem::path(settings_.reference_program).filename().string();
  // Own bug or known limit on `plan`: the reference's violation in `runs` runs (none, when the theory decides).
  const auto limit_on = [&](const RunPlan& plan, int runs, const char* which) -> std::optional<std::string> {
    if (theory) {
      const auto limit = known_limit(property, plan.config.faults, fencing_, find.verdict.tags);
      if (limit) return fmt::format("the theory: {} ({})", limit->because, theory_because);
      return std::nullopt;
    }
    const Tally ref = reference_on(find, plan, runs);
    record.reference_runs = ref.runs;
    record.reference_violations = ref.violated;
    if (ref.violated == 0) return std::nullopt;
    find.reference_seed = ref.first_seed;
    return fmt::format("{} ({}) breaks it too under the {} schedule (seed {}, {} of {} run(s)): {}", reference_lock(),
                       reference_name(), which, ref.first_seed, ref.violated, ref.runs, ref.verdict.cause);
  };
  std::vector<std::uint64_t> seeds;
  std::string path;
  // Writes the find's file, an own bug (decided_by empty) or a known limit; `path` names it.
  const auto write = [&](const std::string& decided_by, const std::string& reproduced) {
    const std::string stem = find_stem(settings_.label, property, decided_by.empty());
    path = (std::filesystem::path(settings_.out_dir) / (stem + ".toml")).string();
    std::filesystem::create_directories(settings_.out_dir);
    const std::string description = fmt::format(
        "Found by lockcheck explore --client (run {}) on real redis-servers, {} fault(s): {}\n{}: {}\n{}\n{}: {}", find.run,
        find.minimal.config.faults.size(), schedule_text(find.minimal.config, settings_.base), property, find.verdict.cause, reproduced,
        decided_by.empty() ? "The client's own bug" : "A known limit of the fault model", decided_by.empty() ? find.decided_by : decided_by);
    std::ofstream(path) << client_scenario_text(find.minimal, settings_.client, stem, seeds, property, description);
  };
  const auto finish = [&](FindDecision decision) {
    record.own_bug = decision == FindDecision::own_bug;
    record.file.path = path;
    std::lock_guard lock(mutex_);
    records_.push_back(record);
    return decision;
  };
  // 0. A fault that makes the server itself lose or expire the grant (a failover, a split brain, a restart without
  // the data, a node clock ahead) breaks every single-master lock, lockcheck's reference included, but under a
  // crowd of faults only sometimes: telling "sometimes" from "never" takes more real runs than a search can spend
  // (the first bench spent its 600 s so). Such a find is a known limit by the theory, shown as found; `--without`
  // those kinds looks past them. The client's own faults (pauses, its clock, loss, partitions) go to the reference.
  // Not so against a quorum reference: one node's fault breaks no quorum, so the reference decides those too.
  if (!theory && !settings_.reference.quorum) {
    if (const auto server_side = known_limit(property, find.plan.config.faults, fencing_, {}); server_side && server_side_fault(server_side->fault)) {
      find.own_bug = false;
      find.decided_by = fmt::format("the theory: {}, which breaks every single-master lock (lockcheck's reference Mutex "
                                    "too); not rerun: a real run is dear", server_side->because);
      seeds = {find.plan.seed};
      write(find.decided_by, "Seen once by the search; not rerun: a server-side limit of the fault model.");
      record.file.problem = "not rerun (a known limit's example as the search found it)";
      find.story.push_back("a server-side known limit by the theory, shown as found (not rerun)");
      return finish(FindDecision::known_limit);
    }
  }
  // 1. A limit of the model shows at once, mostly: the reference on the run as found, twice at most (known limits
  // are common, and a real run is dear: a limit is shown as found, neither confirmed nor shrunk).
  if (auto limit = limit_on(find.plan, std::min(2, reference_runs(settings_.confirm_runs)), "found")) {
    find.own_bug = false;
    find.decided_by = *limit;
    seeds = {find.plan.seed};
    write(*limit, "Seen once by the search; not rerun: the reference lock broke it too.");
    record.file.problem = "not rerun (a known limit's example as the search found it: the reference lock broke it too)";
    find.story.push_back("a known limit, shown as found (not confirmed nor shrunk: the reference broke it too)");
    return finish(FindDecision::known_limit);
  }
  // 2. Confirmed: the schedule as found, on its seed and the next ones (for every property the run broke at once).
  int spent = 0;
  const Tally confirmed = confirm(find, property);
  if (confirmation_after(confirmed.violated, confirmed.runs, settings_) != Confirmation::confirmed) {
    std::fprintf(stderr, "explore %s: run %llu's %s violation reproduced %d of %d reruns: not a find\n", settings_.label.c_str(),
                 static_cast<unsigned long long>(find.run), property.c_str(), confirmed.violated, confirmed.runs);
    return FindDecision::not_confirmed;
  }
  // When the written file reproduces it, its first violation replaces this one (step 5).
  find.violation_us = confirmed.violation_us;
  std::fprintf(stderr, "explore %s: run %llu's %s violation reproduced %d of %d reruns; deciding and shrinking it\n",
               settings_.label.c_str(), static_cast<unsigned long long>(find.run), property.c_str(), confirmed.violated, confirmed.runs);
  // 3. The reference as often as the client's rate asks, on the run as found (the rate as of R reruns).
  const int reproduced_of_r = std::max(1, confirmed.violated * settings_.confirm_runs / std::max(1, confirmed.runs));
  std::optional<std::string> limit = limit_on(find.plan, reference_runs(reproduced_of_r), "found");
  // 4. Shrunk while it reproduces.
  if (!limit) find.one_minimal = shrink(find, reproduced_of_r, spent);
  record.shrink_runs = spent;
  // 5. Written, and the file judged on each of its R seeds, as `lockcheck judge FILE` runs them.
  for (int i = 0; i < settings_.confirm_runs; ++i) seeds.push_back(find.minimal.seed + static_cast<std::uint64_t>(i));
  write(limit.value_or(""), "");
  Tally from_file;
  {
    std::vector<std::exception_ptr> errors;
    std::mutex guard;
    std::atomic<std::size_t> next{0};
    const auto work = [&] {
      for (std::size_t i = next++; i < seeds.size(); i = next++) {
        try {
          ClientRunResult run;
          try {
            run = runner_.run_file(path, seeds[i]);
          } catch (const std::runtime_error& error) {
            std::fprintf(stderr, "explore %s: a run of %s (seed %llu) could not be judged, left out: %s\n", settings_.label.c_str(),
                         path.c_str(), static_cast<unsigned long long>(seeds[i]), error.what());
            continue;
          }
          const shrink::Judged judged = shrink::judge_history(run.history, property);
          std::lock_guard lock(guard);
          ++from_file.runs;
          if (judged.violated() && from_file.violated++ == 0) {
            from_file.verdict = judged.verdict;
            from_file.violation_us = judged.violation_us;
            from_file.first_seed = seeds[i];
          }
        } catch (...) {
          std::lock_guard lock(guard);
          errors.push_back(std::current_exception());
        }
      }
    };
    std::vector<std::thread> threads;
    for (unsigned t = 1; t < std::min<unsigned>(settings_.parallel, static_cast<unsigned>(seeds.size())); ++t) threads.emplace_back(work);
    work();
    for (auto& thread : threads) thread.join();
    if (!errors.empty()) std::rethrow_exception(errors.front());
  }
  record.reproduced = from_file.violated;
  record.confirm_runs = from_file.runs;
  if (from_file.violated > 0) {
    find.verdict = from_file.verdict;
    find.violation_us = from_file.violation_us;
  }
  find.shrink_simulations = spent;
  // 6. Decided on the file's schedule too (an own bug only if the reference keeps the property there as well),
  // unless shrinking changed nothing: then the reference ran on this very schedule already.
  const bool shrunk = !same_schedule(find.minimal.config, find.plan.config);
  if (!limit && shrunk) limit = limit_on(find.minimal, reference_runs(from_file.violated), "minimal");
  find.own_bug = !limit;
  find.decided_by = limit ? *limit
                    : theory ? fmt::format("no case of the theory explains it, and {}", theory_because)
                             : fmt::format("{} ({}) keeps it under the same schedule ({} runs with no violation; "
                                           "the client broke it in {})",
                                           reference_lock(), reference_name(), record.reference_runs,
                                           client_evidence(confirmed.violated, confirmed.runs, from_file.violated, from_file.runs));
  // The file says the final decision (and takes a limit's name when it was decided only now).
  std::error_code ignored;
  std::filesystem::remove(path, ignored);
  write(find.own_bug ? "" : find.decided_by,
        fmt::format("Reproduced in {} of {} runs (seeds {}..{}; a real run does not replay byte for byte); as found, {} of {}.",
                    from_file.violated, from_file.runs, seeds.front(), seeds.back(), confirmed.violated, confirmed.runs));
  record.file.reproduced = from_file.violated >= settings_.min_reproductions;
  if (!record.file.reproduced) {
    record.file.problem = fmt::format("the file reproduced it in {} of {} runs, fewer than {}", from_file.violated, from_file.runs,
                                      settings_.min_reproductions);
  }
  find.story.push_back(fmt::format("reproduced in {} of {} runs of the written file (confirmed as found: {} of {})", from_file.violated,
                                   from_file.runs, confirmed.violated, confirmed.runs));
  if (!theory) {
    find.story.push_back(fmt::format("{}: {} violation(s) in {} run(s) under the same schedule", reference_lock(),
                                     record.reference_violations, record.reference_runs));
  }
  find.story.push_back(fmt::format("{} judged run(s) spent shrinking", spent));
  return finish(find.own_bug ? FindDecision::own_bug : FindDecision::known_limit);
}

WrittenFind ClientFindJudge::file_of(const Find& find) const {
  std::lock_guard lock(mutex_);
  for (const ClientFindRecord& record : records_) {
    if (record.property == find.selector() && record.run == find.run) return record.file;
  }
  return WrittenFind{"", false, "no file was written for it"};
}

std::vector<ClientFindRecord> ClientFindJudge::records() const {
  std::lock_guard lock(mutex_);
  return records_;
}

}  // namespace lockcheck::explore
