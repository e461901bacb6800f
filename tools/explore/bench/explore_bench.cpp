// explore_bench: CPU-seconds and runs to the first counterexample, per known bug, for three strategies in the
// same process run: (a) all-on (every fault kind in every run: a random nemesis with everything enabled),
// (b) swarm (a random subset of kinds per run), (c) guided (short runs with every kind on at a drawn fault
// density, and mutation of runs that reached a new mark or pair of marks). Each (bug, strategy) is searched
// from `--roots` root seeds, each capped at `--cap-s` CPU-seconds; the figures are medians over the root
// seeds (a search that hit the cap counts as the cap, and as not found). The clock stops at the find: no
// shrink and no rerun follow it (shrink_simulations = 0).
//
//   explore_bench [--roots 20] [--cap-s 60] [--jobs 2] [--only NAME] [--corpus DIR] [--strategies all-on,swarm,guided]
//
// Prints a table per bug and a summary line with the ratio all-on / guided of the median over the corpus.
#include <fmt/format.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <fstream>
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
  sim::SimConfig base;
  bool can_renew = false;
};

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Bug catalogue_bug(const std::string& variant, const std::string& property) {
  return Bug{variant + ":" + property, property, explore::explore_base_for_variant(variant), false};
}

Bug script_bug(const std::string& name, const std::string& property, const std::string& acquire, const std::string& release,
               const std::string& renew) {
  Bug bug{"script:" + name, property, explore::explore_base_for_variant("script"), !renew.empty()};
  bug.base.scripts = UserScripts{read_text(acquire), read_text(release), renew.empty() ? "" : read_text(renew)};
  return bug;
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
      script_bug("unchecked-release", "owner_only_release", good_acquire, mutants + "/unchecked_release.lua", good_renew),
      script_bug("unchecked-renew", "owner_only_release", good_acquire, good_release, scripts + "/unchecked_renew.lua"),
      script_bug("ttl-stripping-renew", "bounded_unavailability", good_acquire, good_release, scripts + "/ttl_stripping_renew.lua"),
      script_bug("no-nx", "mutual_exclusion_server", mutants + "/no_nx_acquire.lua", good_release, ""),
      script_bug("client-clock-expiry", "mutual_exclusion_server", mutants + "/client_clock_acquire.lua", good_release, ""),
      script_bug("seconds-for-ms", "bounded_unavailability", mutants + "/seconds_acquire.lua", good_release, ""),
      script_bug("no-ttl", "bounded_unavailability", mutants + "/no_ttl_acquire.lua", good_release, ""),
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
};

Search search(const Bug& bug, explore::Strategy strategy, std::uint64_t root, double cap_seconds) {
  explore::ExploreOptions options;
  options.strategy = strategy;
  options.seed = root;
  options.only_property = bug.property;
  options.shrink_simulations = 0;  // no rerun after a find: the clock stops at the find, not after a shrink
  explore::Explorer explorer(bug.base, bug.can_renew, options);
  const double start = thread_cpu_seconds();
  Search out;
  for (int step = 0; step < 1000000; ++step) {
    if (!explorer.step()) break;
    if (thread_cpu_seconds() - start >= cap_seconds) break;
  }
  out.found = !explorer.result().finds.empty();
  out.runs = explorer.result().runs;
  out.cpu_seconds = out.found ? thread_cpu_seconds() - start : cap_seconds;
  return out;
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
  std::string only, corpus_dir = LOCKCHECK_SOURCE_DIR, strategy_names = "all-on,swarm,guided";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (arg == "--roots") roots = std::stoi(value());
    else if (arg == "--cap-s") cap = std::stod(value());
    else if (arg == "--jobs") jobs = static_cast<unsigned>(std::stoi(value()));
    else if (arg == "--only") only = value();
    else if (arg == "--corpus") corpus_dir = value();
    else if (arg == "--strategies") strategy_names = value();
    else {
      std::fprintf(stderr, "usage: explore_bench [--roots N] [--cap-s S] [--jobs J] [--only NAME] [--corpus SOURCE_DIR] "
                           "[--strategies all-on,swarm,guided]\n");
      return 2;
    }
  }
  const std::vector<Bug> bugs = corpus(corpus_dir + "/scenarios/scripts", corpus_dir + "/tools/explore/bench/mutants");
  const explore::Strategy strategies[] = {explore::Strategy::all_on, explore::Strategy::swarm, explore::Strategy::guided};
  std::printf("explore_bench: %d root seeds per (bug, strategy), cap %.0f CPU-s each, %u jobs\n", roots, cap, jobs);
  std::printf("%-40s %-7s %10s %10s %8s\n", "bug", "strategy", "median s", "median runs", "found");
  std::vector<double> medians[3];
  std::vector<double> found_fraction[3];
  for (const Bug& bug : bugs) {
    if (!only.empty() && bug.name.find(only) == std::string::npos) continue;
    for (int s = 0; s < 3; ++s) {
      if (strategy_names.find(std::string(explore::to_string(strategies[s]))) == std::string::npos) continue;
      std::vector<Search> searches(static_cast<std::size_t>(roots));
      std::atomic<int> next{0};
      const auto work = [&] {
        for (int r = next++; r < roots; r = next++) searches[static_cast<std::size_t>(r)] = search(bug, strategies[s], static_cast<std::uint64_t>(r + 1), cap);
      };
      std::vector<std::thread> threads;
      for (unsigned t = 1; t < jobs; ++t) threads.emplace_back(work);
      work();
      for (auto& thread : threads) thread.join();
      std::vector<double> seconds;
      std::vector<std::uint64_t> runs;
      int found = 0;
      for (const Search& each : searches) {
        seconds.push_back(each.cpu_seconds);
        runs.push_back(each.runs);
        found += each.found ? 1 : 0;
      }
      medians[s].push_back(median(seconds));
      found_fraction[s].push_back(static_cast<double>(found) / roots);
      std::printf("%-40s %-7s %10.3f %10llu %5d/%d\n", bug.name.c_str(), std::string(explore::to_string(strategies[s])).c_str(),
                  median(seconds), static_cast<unsigned long long>(median(runs)), found, roots);
      std::fflush(stdout);
    }
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
    std::printf("ratio all-on / guided of the corpus medians: %.2fx (swarm: %.2fx)\n", median(medians[0]) / median(medians[2]),
                median(medians[0]) / median(medians[1]));
  }
  return 0;
}
