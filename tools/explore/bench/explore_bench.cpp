// explore_bench: CPU-seconds and runs to the first counterexample, per known bug, for three strategies in the
// same process run: (a) all-on (every fault kind in every run: a random nemesis with everything enabled),
// (b) swarm (a random subset of kinds per run), (c) guided (short runs with every kind on at a drawn fault
// density, and mutation of runs that reached a new mark or pair of marks). Each (bug, strategy) is searched
// from `--roots` root seeds, each capped at `--cap-s` CPU-seconds; the figures are medians over the root
// seeds (a search that hit the cap counts as the cap, and as not found). The clock stops at the first violation
// of the bug's property: no shrink, no decision by the reference (the strategies' figure of merit).
//
// Then the defaults: each user-script bug (and each correct set) explored exactly as `lockcheck explore
// --scripts ...` with no other flag does (guided, every property, the reference decides, finds shrunk, the
// command's run budget, explore::kDefaultBudgetRuns), from each root seed. A bug counts as found when the
// search's first own bug is one of its properties; a correct set must show no own bug. The clock covers the
// whole search, decision and shrink included.
//
//   explore_bench [--roots 20] [--cap-s 60] [--jobs 2] [--only NAME] [--corpus DIR] [--strategies all-on,swarm,guided]
//                 [--quick] [--first N]
//
// --first N: only the corpus's first N bugs, the corpus as an older bench had it (19 before the eight newer
// mutants), so that runs_per_cpu.sh can set this bench beside an older build's on the same bugs.
//
// --quick: CI's form: 2 root seeds, the defaults section only, no CPU cap (a run budget: the same result on
// any machine and under any load): the bugs with the command's default run budget, the correct sets with 300.
// Exit status 1 when a target is missed: a user-script bug found by the defaults from fewer than 95% of the
// root seeds, a correct set with an own bug, or (all three strategies run) guided's corpus median less than
// 3x faster than all-on's. Prints a table per bug and summary lines, among them each strategy's runs per
// CPU-second over all its searches (a run's cost: start-up, state, judging).
#include <fmt/format.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "explorer.hpp"
#include "lockcheck/variants/script_lock.hpp"

namespace {

using namespace lockcheck;

struct Bug {
  std::string name;
  std::string property;  // the violation that counts as finding it
  sim::RunConfig base;
  bool can_renew = false;
  // For the defaults: the properties whose own-bug find counts as finding this bug (the property first); empty
  // for a catalogue cell, which the defaults do not run. A correct set has `correct` and no property.
  std::vector<std::string> accepted;
  bool correct = false;
};

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Bug catalogue_bug(const std::string& variant, const std::string& property) {
  return Bug{variant + ":" + property, property, explore::explore_base_for_variant(variant), false, {}, false};
}

Bug script_bug(const std::string& name, const std::string& property, const std::string& acquire, const std::string& release,
               const std::string& renew, std::vector<std::string> also = {}) {
  Bug bug{"script:" + name, property, explore::explore_base_for_variant("script"), !renew.empty(), {}, false};
  bug.base.scripts = UserScripts{read_text(acquire), read_text(release), renew.empty() ? "" : read_text(renew)};
  bug.accepted = {property};
  for (std::string& other : also) bug.accepted.push_back(std::move(other));
  return bug;
}

Bug correct_set(const std::string& name, const std::string& acquire, const std::string& release, const std::string& renew) {
  Bug set = script_bug(name, "", acquire, release, renew);
  set.accepted.clear();
  set.correct = true;
  return set;
}

std::vector<Bug> corpus(const std::string& scripts, const std::string& mutants) {
  const std::string good_acquire = scripts + "/token_acquire.lua", good_release = scripts + "/token_release.lua",
                    good_renew = scripts + "/token_renew.lua";
  return {
      // Broken variants of the catalogue: their documented weak spot.
      catalogue_bug("exists-then-set", "mutual_exclusion_server"),
      catalogue_bug("setnx-then-expire", "bounded_unavailability"),
      catalogue_bug("set-nx-ex-del", "owner_only_release"),
      catalogue_bug("get-then-del", "owner_only_release"),
      catalogue_bug("thread-id", "mutual_exclusion_server"),
      catalogue_bug("appid-thread", "reentrancy"),
      catalogue_bug("watchdog-unchecked", "owner_only_release"),
      catalogue_bug("rw-two-keys", "mutual_exclusion_client"),
      catalogue_bug("rw-hash-timestamps", "mutual_exclusion_server"),
      // The catalogue's known breaking cells: correct locks under the fault the theory says breaks them.
      catalogue_bug("token", "mutual_exclusion_client"),
      catalogue_bug("redlock", "mutual_exclusion_server"),
      catalogue_bug("token-wait", "mutual_exclusion_server"),
      // Mutants of a user's correct scripts.
      script_bug("unchecked-release", "owner_only_release", good_acquire, mutants + "/unchecked_release.lua", good_renew,
                 {"mutual_exclusion_server", "mutual_exclusion_client", "mutual_exclusion_resource"}),
      script_bug("unchecked-renew", "owner_only_release", good_acquire, good_release, scripts + "/unchecked_renew.lua",
                 {"mutual_exclusion_server", "mutual_exclusion_client", "mutual_exclusion_resource"}),
      // The renewal that strips the TTL breaks the renew contract at once (renewal); a holder's death after it
      // then keeps the lock forever (bounded unavailability).
      script_bug("ttl-stripping-renew", "bounded_unavailability", good_acquire, good_release, scripts + "/ttl_stripping_renew.lua",
                 {"renewal"}),
      script_bug("no-nx", "mutual_exclusion_server", mutants + "/no_nx_acquire.lua", good_release, "",
                 {"mutual_exclusion_client", "mutual_exclusion_resource"}),
      script_bug("client-clock-expiry", "mutual_exclusion_server", mutants + "/client_clock_acquire.lua", good_release, "",
                 {"mutual_exclusion_client", "mutual_exclusion_resource"}),
      script_bug("seconds-for-ms", "bounded_unavailability", mutants + "/seconds_acquire.lua", good_release, ""),
      script_bug("no-ttl", "bounded_unavailability", mutants + "/no_ttl_acquire.lua", good_release, ""),
      // Bugs teams plausibly ship, beyond the catalogue's (none of them is a catalogue variant).
      script_bug("steal-expiring", "mutual_exclusion_server", mutants + "/steal_expiring_acquire.lua", good_release, "",
                 {"mutual_exclusion_client", "mutual_exclusion_resource"}),
      script_bug("ignores-set-result", "mutual_exclusion_client", mutants + "/ignores_set_result_acquire.lua", good_release, "",
                 {"mutual_exclusion_resource"}),
      script_bug("deletes-anyway", "owner_only_release", good_acquire, mutants + "/deletes_anyway_release.lua", "",
                 {"mutual_exclusion_server", "mutual_exclusion_client", "mutual_exclusion_resource"}),
      script_bug("refresh-any", "owner_only_release", mutants + "/refresh_any_acquire.lua", good_release, "",
                 {"bounded_unavailability"}),
      // Its first symptom is two holders on the server (a stale holder's renewal writes its token over the new
      // holder's); a foreign release follows only when that stale holder then releases before the key expires,
      // which all-on and swarm never met in 60 CPU-s from 20 roots (guided: 1 root of 3 in 30 CPU-s).
      script_bug("set-xx-renew", "mutual_exclusion_server", good_acquire, good_release, mutants + "/set_xx_renew.lua",
                 {"owner_only_release", "mutual_exclusion_client", "mutual_exclusion_resource"}),
      // The renewal contract (the key lives the TTL from the renewal, no more) is what it breaks: the renewal
      // checker sees it at the first renewal that piles time up; bounded unavailability needs a crash after
      // five or more renewals, then a run long enough to judge it.
      script_bug("accumulating-renew", "renewal", good_acquire, good_release, mutants + "/accumulating_renew.lua",
                 {"bounded_unavailability"}),
      script_bug("seconds-renew", "bounded_unavailability", good_acquire, good_release, mutants + "/seconds_renew.lua",
                 {"renewal"}),
      // GETSET also drops the key's TTL: a refused acquire leaves the key without expiry (bounded unavailability,
      // with no fault at all), besides overwriting the holder's token.
      script_bug("getset", "mutual_exclusion_server", mutants + "/getset_acquire.lua", good_release, "",
                 {"mutual_exclusion_client", "mutual_exclusion_resource", "owner_only_release", "bounded_unavailability"}),
      // A renew that answers yes and extends nothing (PEXPIRE ... NX on a key that has a TTL): the renewal
      // checker sees the first such renewal; the key then expires under a holder that believes it valid.
      script_bug("pexpire-nx-renew", "renewal", good_acquire, good_release, mutants + "/pexpire_nx_renew.lua",
                 {"mutual_exclusion_server", "mutual_exclusion_client", "mutual_exclusion_resource"}),
      // EX in whole seconds, rounded down: only a TTL that is not whole seconds shows it (explore draws the TTL
      // of a user's scripts: the base's, 1.5 and 2.5 times it).
      script_bug("whole-seconds", "mutual_exclusion_client", mutants + "/whole_seconds_acquire.lua", good_release, "",
                 {"mutual_exclusion_server", "mutual_exclusion_resource"}),
      // A renew that SETs the key back when it has gone answers yes for a lapsed lock: the renewal checker sees the
      // renew create its key (a failover that lost it, a holder slowed past its TTL).
      script_bug("self-healing-renew", "renewal", good_acquire, good_release, mutants + "/self_healing_renew.lua",
                 {"mutual_exclusion_client", "mutual_exclusion_resource"}),
      // A renew that extends only when less than half the TTL is left, and answers yes either way: the renewal
      // checker sees the key live less than the TTL from the renewal's answer.
      script_bug("lazy-renew", "renewal", good_acquire, good_release, mutants + "/lazy_renew.lua",
                 {"mutual_exclusion_server", "mutual_exclusion_client", "mutual_exclusion_resource"}),
      // An acquire that answers yes to a retry finding its own token, with the first attempt's TTL: the holder's
      // validity, counted from the retry, outlives its key (a lost reply and a retry show it).
      script_bug("own-token-acquire", "mutual_exclusion_client", mutants + "/own_token_acquire.lua", good_release, "",
                 {"mutual_exclusion_server", "mutual_exclusion_resource"}),
      // PX given ARGV[3] (the wall clock) for ARGV[2] (the TTL): a holder that dies leaves the lock taken.
      script_bug("ttl-argument-typo", "bounded_unavailability", mutants + "/ttl_argument_typo_acquire.lua", good_release, ""),
      // A release that also deletes a key with under 50 ms left, whoever's it is: a holder's key has that little
      // left when its node's clock runs fast or its process is slow; the release of a client whose own lock has
      // lapsed then deletes it (the key is gone for a waiter to take, 50 ms early at most).
      script_bug("cleans-expiring-release", "owner_only_release", good_acquire, mutants + "/cleans_expiring_release.lua", "",
                 {"mutual_exclusion_server", "mutual_exclusion_client", "mutual_exclusion_resource"}),
      // One-command forms that act before they check: GETDEL deletes whatever it read, GETEX ... PX extends it.
      script_bug("getdel-release", "owner_only_release", good_acquire, mutants + "/getdel_release.lua", "",
                 {"mutual_exclusion_server", "mutual_exclusion_client", "mutual_exclusion_resource"}),
      script_bug("getex-renew", "owner_only_release", good_acquire, good_release, mutants + "/getex_renew.lua",
                 {"mutual_exclusion_server", "mutual_exclusion_client", "mutual_exclusion_resource", "renewal"}),
      // Redisson's synchronizers (issue 37), after the older corpus so that --first 19 is still that corpus.
      // A synchronizer's documented bug is the clause of its property it breaks (properties/clauses.hpp).
      catalogue_bug("redisson-latch", "latch/never_opened"),
      catalogue_bug("redisson-multilock", "bounded_unavailability"),
      catalogue_bug("redisson-fair", "fairness"),
      catalogue_bug("redisson-semaphore", "permit_safety/permit_lost"),
      catalogue_bug("redisson-permit-expirable", "permit_safety/too_many_holders"),
      catalogue_bug("redisson-like-retries", "reentrancy"),
      catalogue_bug("redisson-fenced", "reentrancy"),
      catalogue_bug("redisson-semaphore", "permit_safety/inflated_count"),
      // The controls: correct scripts, with and without renewal.
      correct_set("correct", good_acquire, good_release, ""),
      correct_set("correct+renew", good_acquire, good_release, good_renew),
  };
}

double thread_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}

struct Search {
  bool found = false;
  double cpu_seconds = 0;
  std::uint64_t runs = 0;
  std::uint64_t events = 0;  // simulated events over all its runs: what a run's length costs
  double spent_cpu_seconds = 0;  // what the search took, the cap included (cpu_seconds is the cap when not found)
};

Search search(const Bug& bug, explore::Strategy strategy, std::uint64_t root, double cap_seconds) {
  explore::ExploreOptions options;
  options.strategy = strategy;
  options.seed = root;
  options.only_property = bug.property;
  options.shrink_simulations = 0;  // no rerun after a find: the clock stops at the find, not after a shrink
  options.decide = false;          // the first violation of the property, as a user of --property meets it
  explore::Explorer explorer(bug.base, bug.can_renew, options);
  const double start = thread_cpu_seconds();
  Search out;
  for (int step = 0; step < 1000000; ++step) {
    if (!explorer.step()) break;
    if (thread_cpu_seconds() - start >= cap_seconds) break;
  }
  out.found = !explorer.result().finds.empty();
  out.runs = explorer.result().runs;
  out.events = explorer.result().events;
  out.spent_cpu_seconds = thread_cpu_seconds() - start;
  out.cpu_seconds = out.found ? out.spent_cpu_seconds : cap_seconds;
  return out;
}

// `lockcheck explore --scripts ...` with no other flag: the command's defaults (explore_command.cpp).
struct DefaultsSearch {
  bool own_bug = false;         // some own bug was found
  std::string property;         // the first own bug's property
  double cpu_seconds = 0;
  std::uint64_t runs = 0;
};

DefaultsSearch defaults_search(const Bug& bug, std::uint64_t root, double cap_seconds, std::uint64_t budget_runs) {
  explore::ExploreOptions options;  // guided, every property, decided by the reference, shrunk
  options.seed = root;
  options.budget_runs = budget_runs;
  explore::Explorer explorer(bug.base, bug.can_renew, options);
  const double start = thread_cpu_seconds();
  for (int step = 0; step < 1000000 && explorer.step(); ++step) {
    if (thread_cpu_seconds() - start >= cap_seconds) break;
  }
  DefaultsSearch out;
  out.cpu_seconds = thread_cpu_seconds() - start;
  out.runs = explorer.result().runs;
  if (!explorer.result().finds.empty()) {
    out.own_bug = true;
    out.property = explorer.result().finds.front().property;
  }
  return out;
}

// Runs `search_root(r)` for r in 0..roots-1 on `jobs` threads, each taking the next root.
void for_each_root(int roots, unsigned jobs, const std::function<void(int)>& search_root) {
  std::atomic<int> next{0};
  const auto work = [&] {
    for (int r = next++; r < roots; r = next++) search_root(r);
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < jobs; ++t) threads.emplace_back(work);
  work();
  for (auto& thread : threads) thread.join();
}

template <typename T>
T median(std::vector<T> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? T{} : values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int roots = 20;
  double cap = 60;
  unsigned jobs = 2;
  bool quick = false;
  bool defaults = true;  // --no-defaults: the strategies only (runs_per_cpu.sh's paired mode, one bug at a time)
  std::size_t first = 0;  // --first N: only the corpus's first N bugs (the corpus as an older bench had it)
  std::string only, corpus_dir = LOCKCHECK_SOURCE_DIR, strategy_names = "all-on,swarm,guided";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (arg == "--roots") roots = std::stoi(value());
    else if (arg == "--cap-s") cap = std::stod(value());
    else if (arg == "--jobs") jobs = static_cast<unsigned>(std::stoi(value()));
    else if (arg == "--only") only = value();
    else if (arg == "--first") first = static_cast<std::size_t>(std::stoul(value()));
    else if (arg == "--corpus") corpus_dir = value();
    else if (arg == "--strategies") strategy_names = value();
    else if (arg == "--quick") quick = true;
    else if (arg == "--no-defaults") defaults = false;
    else {
      std::fprintf(stderr, "usage: explore_bench [--roots N] [--cap-s S] [--jobs J] [--only NAME] [--corpus SOURCE_DIR] "
                           "[--strategies all-on,swarm,guided] [--quick] [--first N] [--no-defaults]\n");
      return 2;
    }
  }
  std::uint64_t correct_budget_runs = explore::kDefaultBudgetRuns;
  if (quick) {
    roots = 2;
    cap = 1e9;
    strategy_names = "";
    correct_budget_runs = 300;
  }
  std::vector<Bug> bugs = corpus(corpus_dir + "/scenarios/scripts", corpus_dir + "/tools/explore/bench/mutants");
  if (first > 0 && first < bugs.size()) bugs.resize(first);
  int missed = 0;  // targets not met: the exit status
  const explore::Strategy strategies[] = {explore::Strategy::all_on, explore::Strategy::swarm, explore::Strategy::guided};
  std::printf("explore_bench: %d root seeds per (bug, strategy), cap %.0f CPU-s each, %u jobs\n", roots, cap, jobs);
  std::printf("%-40s %-7s %10s %10s %8s\n", "bug", "strategy", "median s", "median runs", "found");
  std::vector<double> medians[3];
  std::vector<double> found_fraction[3];
  std::uint64_t strategy_runs[3] = {0, 0, 0};
  double strategy_cpu[3] = {0, 0, 0};
  std::uint64_t strategy_events[3] = {0, 0, 0};
  for (const Bug& bug : bugs) {
    if (!only.empty() && bug.name.find(only) == std::string::npos) continue;
    if (bug.correct) continue;  // the controls have no property: the defaults section runs them
    for (int s = 0; s < 3; ++s) {
      if (strategy_names.find(std::string(explore::to_string(strategies[s]))) == std::string::npos) continue;
      std::vector<Search> searches(static_cast<std::size_t>(roots));
      for_each_root(roots, jobs, [&](int r) { searches[static_cast<std::size_t>(r)] = search(bug, strategies[s], static_cast<std::uint64_t>(r + 1), cap); });
      std::vector<double> seconds;
      std::vector<std::uint64_t> runs;
      int found = 0;
      for (const Search& each : searches) {
        seconds.push_back(each.cpu_seconds);
        runs.push_back(each.runs);
        found += each.found ? 1 : 0;
        strategy_runs[s] += each.runs;
        strategy_events[s] += each.events;
        strategy_cpu[s] += each.spent_cpu_seconds;
      }
      medians[s].push_back(median(seconds));
      found_fraction[s].push_back(static_cast<double>(found) / roots);
      std::printf("%-40s %-7s %10.3f %10llu %5d/%d\n", bug.name.c_str(), std::string(explore::to_string(strategies[s])).c_str(),
                  median(seconds), static_cast<unsigned long long>(median(runs)), found, roots);
      std::fflush(stdout);
    }
  }
  // A run's cost (start-up, state, judging), as a rate: every search of the strategy, found or not.
  for (int s = 0; s < 3; ++s) {
    if (medians[s].empty() || strategy_cpu[s] <= 0) continue;
    std::printf("runs %-7s: %llu runs in %.1f CPU-s, %.1f runs per CPU-second\n",
                std::string(explore::to_string(strategies[s])).c_str(), static_cast<unsigned long long>(strategy_runs[s]),
                strategy_cpu[s], static_cast<double>(strategy_runs[s]) / strategy_cpu[s]);
    // Runs differ in length between builds (what a run simulates); events per CPU-second is the cost of one.
    std::printf("events %-7s: %.0f simulated events per run, %.0f per CPU-second\n",
                std::string(explore::to_string(strategies[s])).c_str(),
                strategy_runs[s] > 0 ? static_cast<double>(strategy_events[s]) / static_cast<double>(strategy_runs[s]) : 0.0,
                static_cast<double>(strategy_events[s]) / strategy_cpu[s]);
  }
  for (int s = 0; s < 3; ++s) {
    if (medians[s].empty()) continue;
    const double all_found = static_cast<double>(std::count(found_fraction[s].begin(), found_fraction[s].end(), 1.0));
    std::printf("summary %-7s: median over the corpus of the per-bug median CPU-s %.3f; bugs found from every root seed "
                "%.0f of %zu; lowest fraction of root seeds finding a bug %.2f\n",
                std::string(explore::to_string(strategies[s])).c_str(), median(medians[s]), all_found, medians[s].size(),
                found_fraction[s].empty() ? 0.0 : *std::min_element(found_fraction[s].begin(), found_fraction[s].end()));
  }
  if (!medians[0].empty() && !medians[1].empty() && !medians[2].empty() && median(medians[2]) > 0) {
    const double ratio = median(medians[0]) / median(medians[2]);
    std::printf("ratio all-on / guided of the corpus medians: %.2fx (swarm: %.2fx)%s\n", ratio,
                median(medians[0]) / median(medians[1]), ratio < 3.0 ? "  MISSED: the target is 3x" : "");
    if (ratio < 3.0) ++missed;
  }

  if (!defaults) {
    std::printf("%s\n", missed == 0 ? "every target met (the defaults not run)" : fmt::format("{} target(s) missed", missed).c_str());
    return missed == 0 ? 0 : 1;
  }
  // The defaults, as a user runs them: found as the lock's own bug, or (a correct set) no own bug at all.
  std::printf("\ndefaults (`lockcheck explore --scripts ...`, no other flag): %d root seeds, %s\n", roots,
              quick ? fmt::format("no CPU cap, correct sets {} runs", correct_budget_runs).c_str()
                    : fmt::format("cap {:.0f} CPU-s each", cap).c_str());
  std::printf("%-40s %10s %10s %12s %s\n", "scripts", "median s", "median runs", "found", "first own bug (root seeds)");
  std::uint64_t runs_in_all = 0;
  double cpu_in_all = 0;
  for (const Bug& bug : bugs) {
    if (!only.empty() && bug.name.find(only) == std::string::npos) continue;
    if (bug.accepted.empty() && !bug.correct) continue;  // a catalogue cell: not a user's scripts
    std::vector<DefaultsSearch> searches(static_cast<std::size_t>(roots));
    for_each_root(roots, jobs, [&](int r) {
      searches[static_cast<std::size_t>(r)] =
          defaults_search(bug, static_cast<std::uint64_t>(r + 1), cap, bug.correct ? correct_budget_runs : explore::kDefaultBudgetRuns);
    });
    std::vector<double> seconds;
    std::vector<std::uint64_t> runs;
    std::map<std::string, int> first_bugs;
    int found = 0;
    for (const DefaultsSearch& each : searches) {
      seconds.push_back(each.cpu_seconds);
      runs.push_back(each.runs);
      runs_in_all += each.runs;
      cpu_in_all += each.cpu_seconds;
      if (each.own_bug) ++first_bugs[each.property];
      const bool counted = each.own_bug && std::find(bug.accepted.begin(), bug.accepted.end(), each.property) != bug.accepted.end();
      found += bug.correct ? (each.own_bug ? 0 : 1) : (counted ? 1 : 0);
    }
    std::string firsts;
    for (const auto& [property, n] : first_bugs) firsts += fmt::format("{}{} {}", firsts.empty() ? "" : ", ", property, n);
    const bool met = bug.correct ? found == roots : found * 100 >= roots * 95;
    if (!met) ++missed;
    std::printf("%-40s %10.3f %10llu %7d/%d%s %s\n", bug.name.c_str(), median(seconds), static_cast<unsigned long long>(median(runs)),
                found, roots, bug.correct ? " clean" : "", (firsts.empty() ? std::string("none") : firsts).c_str());
    if (!met) {
      std::printf("  MISSED: %s\n", bug.correct ? "a correct set was called buggy" : "found as its own bug from fewer than 95% of the root seeds");
      // The roots to replay: `lockcheck explore --scripts ... --seed R` shows the find.
      std::string roots_named;
      for (std::size_t r = 0; r < searches.size(); ++r) {
        const DefaultsSearch& each = searches[r];
        const bool counted = each.own_bug && std::find(bug.accepted.begin(), bug.accepted.end(), each.property) != bug.accepted.end();
        if (bug.correct ? !each.own_bug : counted) continue;
        roots_named += fmt::format("{}{} ({})", roots_named.empty() ? "" : ", ", r + 1, each.own_bug ? each.property : "none");
      }
      std::printf("  root seeds: %s\n", roots_named.c_str());
    }
    std::fflush(stdout);
  }
  if (cpu_in_all > 0) {
    std::printf("defaults: %llu runs in %.1f CPU-s, %.1f runs per CPU-second (whole searches: decisions and shrinks included)\n",
                static_cast<unsigned long long>(runs_in_all), cpu_in_all, static_cast<double>(runs_in_all) / cpu_in_all);
  }
  std::printf("%s\n", missed == 0 ? "every target met" : fmt::format("{} target(s) missed", missed).c_str());
  return missed == 0 ? 0 : 1;
}
