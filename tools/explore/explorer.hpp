#pragma once
// `lockcheck explore`'s search: draws runs from the whole fault model and the workload shapes, and keeps
// those that reach a mark (or a pair of marks) no earlier run reached, mutating their schedules, its fresh
// runs short and dense (every kind on, the fault count kept per simulated second: guided);
// or each run with a random subset of fault kinds (swarm, Groce et al. 2012); or every kind always on (the
// baseline the benchmark measures the other two against). A violation is shrunk to a minimal schedule.
//
// Deterministic: runs go in batches drawn from the explorer's own PRNG before any of them runs, and their
// results are taken in plan order, so a seed and a run budget give the same search with any --jobs.
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <utility>
#include <set>
#include <string>
#include <vector>

#include "model/prng.hpp"
#include "properties/exercise.hpp"
#include "properties/verdict.hpp"
#include "run_plan.hpp"

namespace lockcheck::explore {

enum class Strategy { all_on, swarm, guided };

using MarkCounts = std::array<std::int64_t, properties::kMarkCount>;
// How many runs of the search reached the rarest mark among those a run reached (`marks`): fewer, rarer.
// A run that reached no mark counts as the least rare.
std::int64_t rarest_mark_runs(const MarkCounts& marks, const MarkCounts& runs_reaching);
std::string_view to_string(Strategy strategy);

// Workload knobs a user fixes (`--check-lease`, `--fencing`, `--watchdog`, `--hold-ms`): explore draws the
// others where the lock allows them.
struct WorkloadPins {
  std::optional<bool> check_lease;
  std::optional<sim::Fencing> fencing;
  std::optional<bool> watchdog;
  std::optional<std::pair<std::int64_t, std::int64_t>> hold_us;  // min, max
  std::optional<std::int64_t> ttl_ms;  // a user's scripts' TTL (drawn otherwise)
  void apply(sim::RunConfig& config) const;
};

// One run's outcome, as the search takes it.
struct RunOutcome {
  properties::Exercise exercise;
  std::vector<properties::Verdict> verdicts;
  std::uint64_t events = 0;
};

struct Find;
// What an outside judge (ExploreOptions::judge_find) made of a find: the lock's own bug, a known limit of the
// fault model, or a violation that did not reproduce often enough to be a find at all (real runs only).
enum class FindDecision { own_bug, known_limit, not_confirmed };

// The command's run budget per lock when none is given (`--variant all`: kDefaultBudgetRunsEach). 2,000 left a
// release that deletes another's key in its last 50 ms unfound from 3 or 4 of 20 root seeds (it took 20 to 3,421
// runs); 5,000 runs cost a correct set about 8 CPU-s, far below the 60 the defaults may spend.
inline constexpr std::uint64_t kDefaultBudgetRuns = 5000;
inline constexpr std::uint64_t kDefaultBudgetRunsEach = 300;

struct ExploreOptions {
  Strategy strategy = Strategy::guided;
  std::uint64_t seed = 1;
  std::uint64_t budget_runs = 0;  // 0: no run limit (a time budget, checked by the caller, ends it)
  unsigned jobs = 1;
  bool all_properties = false;    // go on after the first find, one find per property
  std::string only_property;      // when set, only a violation of this property is a find (the benchmark); a
                                  // selector ("latch/never_opened": that clause only, properties/verdict.hpp).
                                  // Only its checker judges the search's runs: `held` counts it alone
  int max_faults = 6;             // faults drawn per fresh run (a fault and the one that ends it count once);
                                  // guided: per shortest run, times 2, 4 or 8 (Explorer::fault_cap)
  // With 64, a timing-sensitive find (rw-hash-timestamps' renewal racing its release) kept 41 faults; 256: 19;
  // with 256 watch-cas's release across a reconnect kept 44. 1024 leaves room for single removals and halving.
  int shrink_simulations = 1024;  // 0: a find is not shrunk nor rerun (its minimal plan is the plan as found)
  // Fault kinds left out of the search, the starting scenario's own faults of these kinds too: a user who knows
  // their deployment has a known limit (a failover, a node clock jump) looks past it for the lock's own bugs.
  std::vector<sim::FaultKind> without;
  // The reference lock that decides own bug or known limit (reference.hpp); empty: the variant's registry row.
  std::string reference;
  int reference_seeds = 48;  // runs of the reference under the find's schedule and its neighbours
  // Then a search of the reference under the same kinds of fault and the same base (this many runs): a
  // coincidence of faults the lock met once the reference meets too, if it can.
  std::uint64_t reference_search_runs = 256;
  // false: every violation (of only_property, when set) is a find as it is, neither shrunk by kind nor
  // decided (the reference's own search; the benchmark's limit cells).
  bool decide = true;
  // false: a violation whose holder acted after its own validity (properties::kPastOwnValidity, F4) is no find
  // (the reference's own search for a find whose holders were inside their validity: a careless holder of the
  // reference explains no broken promise of the lock).
  bool late_holders_count = true;
  WorkloadPins pins;        // workload knobs fixed on the command line (never redrawn, never shrunk away)
  // Real runs (explore --client, client_explore.hpp): set, each run goes here instead of the simulator, and each
  // find to `judge_find` (which confirms, shrinks and decides it by rerunning) instead of the simulator's shrink
  // and reference; the search's draws, marks and guidance are the same. Both are called from the runs' threads
  // (`run`) and the search's (`judge_find`).
  std::function<RunOutcome(const RunPlan&)> run;
  std::function<FindDecision(Find&)> judge_find;
  // Set, called on each workload it draws (fresh or mutated), after the pins: draws what the runner alone can
  // make real (explore --client's slow link of one client, client_link_delay.hpp), from the search's PRNG;
  // returns whether it drew a slow link (a fault of its own: half the fresh runs with one carry no other).
  std::function<bool(sim::RunConfig&, sim::Prng&)> draw_links;
  std::size_t batch = 8;  // plans drawn before any of them runs (the unit of parallelism and determinism)
};

struct Find {
  std::string property;
  std::string clause;  // the property's clause it broke (properties/verdict.hpp), "" for a property of one
  std::string selector() const { return properties::selector(property, clause); }
  std::uint64_t run = 0;          // 1-based index of the run that found it
  RunPlan plan;                   // as found
  RunPlan minimal;                // shrunk: fewer faults, the same seed
  properties::Verdict verdict;    // on the minimal plan
  std::int64_t violation_us = -1;
  int shrink_simulations = 0;
  bool one_minimal = false;  // checked on the minimal plan: without any one of its faults, no violation
  std::vector<std::string> story;  // what the lock did, from the minimal run's history (explain.hpp)
  // Own bug or known limit (reference.hpp): `reference` is the lock that decided it ("" when the theory did, for
  // a reference lock itself); `reference_seed` the seed it broke on (a known limit).
  bool own_bug = true;
  std::string reference;
  std::uint64_t reference_seed = 0;
  std::string decided_by;  // one sentence: what made it the lock's own bug or a limit of the fault model
};

struct ExploreResult {
  std::uint64_t runs = 0;
  std::uint64_t events = 0;  // simulated events over all runs
  properties::Exercise exercise;  // summed over all runs
  MarkCounts runs_reaching{};  // runs that reached each mark
  std::set<std::pair<int, int>> pairs;  // mark pairs reached in one run
  std::map<std::string, std::int64_t> held;  // property -> runs that judged it holds
  std::vector<Find> finds;   // the lock's own bugs: one per property at most
  // Known limits met (the reference broke too), one per property: the first, shrunk, and how many runs met one.
  struct LimitMet {
    Find example;
    std::int64_t runs = 0;
  };
  std::vector<LimitMet> limits;
  std::int64_t not_confirmed = 0;  // violations an outside judge did not confirm (real runs: too rare on rerun)
  std::size_t corpus = 0;  // runs kept for mutation
  // Of `runs`, those replayed from a corpus (resume_from) before the search's own: outside its run budget.
  std::uint64_t corpus_loaded = 0;
};

// A violated verdict's slots: itself, or one verdict per clause it broke (each with that clause's witness).
std::vector<properties::Verdict> slot_verdicts(const properties::Verdict& verdict);

class Explorer {
 public:
  // `base` fixes the topology and the lock settings; `can_renew`: the variant can run under a watchdog.
  Explorer(sim::RunConfig base, bool can_renew, ExploreOptions options);

  // Runs these before any run of its own (a corpus's kept runs, corpus.hpp), outside the run budget, each as a
  // run of the search: its marks and verdicts count, and one that reaches a mark or a pair of marks no earlier
  // run reached is kept for mutation, as libFuzzer resumes from its corpus. Call before the first step().
  void resume_from(std::vector<RunPlan> runs);
  // Runs one batch; false once the search is over (run budget spent, or a find ends it).
  bool step();
  const ExploreResult& result() const { return result_; }
  // The runs kept for mutation, in the order they were kept (what --corpus persists).
  const std::vector<RunPlan>& kept_runs() const { return corpus_; }

 private:
  std::uint64_t run_seed();
  // A fresh draw simulating `duration_us` (the base's, but for guided's short runs first: run_length.hpp).
  RunPlan fresh_plan(bool every_kind, std::int64_t duration_us);
  // The most faults a fresh run of `duration_us` draws (at least one is drawn).
  std::int64_t fault_cap(std::int64_t duration_us);
  RunPlan mutated_plan();
  // Appends a fault of `kind` to `config`'s schedule (draw_fault_to_play_out when the run is short).
  void draw_fault_in(sim::FaultKind kind, sim::RunConfig& config);
  RunPlan next_plan();
  // Takes one run's outcome; true when the search is over.
  bool take(const RunPlan& plan, const properties::Exercise& exercise, const std::vector<properties::Verdict>& verdicts,
            std::uint64_t events);
  // Shrinks a find's plan into its minimal one (fewer faults, a simpler workload, a shorter run) and judges it.
  void shrink_find(Find& find) const;
  // Own bug or known limit (reference.hpp): decides `find` (shrinking it when it may be the lock's own); true
  // when it is the lock's own bug.
  bool decide(Find& find);
  // Step 3 of decide(): explores the reference lock under the minimal schedule's fault kinds only; the first
  // violation of the find's property it meets, or nullopt.
  std::optional<Find> reference_search(const Find& find) const;
  void note_limit(Find find);
  // A known limit that is its property's first (the one shrunk as the example) decided once more on its
  // shrunk run: shrinking keeps the property violated, not the limit's cause, and may shed the faults of the
  // limit and keep the lock's own bug. True (and `find` is that own bug, decided) when it did.
  bool own_bug_once_shrunk(Find& find);
  // From the find's minimal run (one simulation): counts a mark it reached that no run of the search had, and
  // with `tell_story` what the lock did in it (explain.hpp).
  void learn_from_minimal_run(Find& find, bool tell_story);
  bool done() const;
  // Runs of the search's own, those the run budget counts (not the resumed ones).
  std::uint64_t own_runs() const { return result_.runs - result_.corpus_loaded; }
  // Whether a run with these verdicts could end the search when taken (a find, unless --all-properties):
  // no later run of its batch need run. Read by the runs' threads; take() changes nothing it reads meanwhile.
  bool may_end_search(const std::vector<properties::Verdict>& verdicts) const;
  bool wanted(const properties::Verdict& slot) const;  // only_property (a selector) lets this slot be a find

  sim::RunConfig base_;
  bool can_renew_;
  ExploreOptions options_;
  std::string reference_;  // the lock that decides own bug or known limit
  std::vector<sim::FaultKind> kinds_;
  std::int64_t shortest_run_us_;  // guided's shortest fresh run: one that can still show the property sought
  std::int64_t shortest_unavailability_us_;  // and one that can show bounded_unavailability
  sim::Prng prng_;
  std::vector<RunPlan> corpus_;
  std::vector<MarkCounts> corpus_marks_;  // the marks each kept run reached
  std::vector<RunPlan> resumed_;          // resume_from()'s runs; the first `resumed_next_` have run
  std::size_t resumed_next_ = 0;
  std::uint64_t fresh_runs_ = 0;  // guided's fresh draws so far: the index into the run-length schedule
  std::set<std::string> found_;
  bool over_ = false;
  ExploreResult result_;
};

// The starting configuration of `--variant ID`: the comparison's base workload for it, a replica added to a
// lone master (so that failover and replica faults are in the model), a 10 s run.
sim::RunConfig explore_base_for_variant(const std::string& variant);

}  // namespace lockcheck::explore
