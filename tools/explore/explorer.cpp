#include "explorer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <functional>
#include <limits>
#include <stdexcept>
#include <thread>

#include "core/simulate.hpp"
#include "explain.hpp"
#include "model/variant_config.hpp"
#include "workload_space.hpp"
#include "known_limit.hpp"
#include "lockcheck/variants/registry.hpp"
#include "properties/checkers.hpp"
#include "properties/script_contract.hpp"
#include "reference.hpp"
#include "run_length.hpp"
#include "scenario/scenario.hpp"
#include "shrink.hpp"  // tools/shrink

namespace lockcheck::explore {
namespace {

using Outcome = RunOutcome;

// `only_property` (a property's name, or empty for all): a search for one property's finds judges each run by
// that checker alone; the other ten would cost as much again and could make no find.
Outcome run_plan(const RunPlan& plan, const std::string& only_property) {
  const sim::RunResult run = sim::simulate(plan.config, plan.seed);
  const properties::History history = properties::parse_history(run.history);
  // A user script outside its contract is bad input, not a find: the search stops on it (exit 2).
  if (const auto breach = properties::first_script_contract_breach(history)) {
    throw std::invalid_argument(fmt::format("a lock script broke its contract in a run (seed {}, {}); scenarios/README.md, "
                                            "[scripts], says what each may answer", plan.seed, properties::describe(*breach)));
  }
  Outcome outcome;
  outcome.exercise = properties::exercise_of(history);
  if (!only_property.empty()) {
    outcome.verdicts.push_back(properties::check_one(history, only_property));
    outcome.events = run.events;
    return outcome;
  }
  for (auto& verdict : properties::check_all(history)) {
    const auto* known = std::find(std::begin(sim::kExpectableProperties), std::end(sim::kExpectableProperties), verdict.property);
    if (known != std::end(sim::kExpectableProperties)) outcome.verdicts.push_back(std::move(verdict));
  }
  outcome.events = run.events;
  return outcome;
}

// Runs plans[first..] on `jobs` threads, each thread taking the next plan in order. Once a run `may_end` the
// search, no later plan starts: its outcome could never be taken, and a find in a batch's first run would
// otherwise cost the whole batch. Returns the end of the plans run; every outcome before it is filled.
// (Plans the search never takes change nothing in its result: only taken runs count.)
std::size_t run_from(const std::vector<RunPlan>& plans, std::size_t first, unsigned jobs,
                     const std::function<bool(const Outcome&)>& may_end, const std::function<Outcome(const RunPlan&)>& run,
                     std::vector<Outcome>& outcomes) {
  std::vector<std::exception_ptr> errors(plans.size());
  std::atomic<std::size_t> next{first};
  std::atomic<std::size_t> end{plans.size()};
  const auto work = [&] {
    for (std::size_t i = next++; i < end; i = next++) {
      try {
        outcomes[i] = run(plans[i]);
        // Lower `end` to i + 1 unless another thread lowered it further (each retry sees a lower `end`).
        std::size_t seen = end;
        while (may_end(outcomes[i]) && i + 1 < seen && !end.compare_exchange_weak(seen, i + 1)) {
        }
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < std::min<std::size_t>(jobs, plans.size() - first); ++t) threads.emplace_back(work);
  work();
  for (auto& thread : threads) thread.join();
  for (std::size_t i = first; i < end; ++i) {
    if (errors[i]) std::rethrow_exception(errors[i]);
  }
  return end;
}

// Fault indices stay valid when a workload draw changes the client count.
void fit_processes(sim::RunConfig& config) {
  const auto clients = static_cast<int>(config.clients.size());
  for (sim::FaultSpec& fault : config.faults) {
    if (fault.process >= 0) fault.process %= clients;
  }
}

// The workload shrunk too, one simplification at a time, each kept only while the seed still violates:
// no watchdog, no nesting, the base's TTL, fewer clients (down to two, and never below a client a fault names).
// Without the watchdog, holds stay within the TTL unless the base's own holds pass it: a shrunk find must be
// a run the search could have drawn, not a holder outstaying a lease nothing renews. True when it changed.
bool shrink_workload(sim::RunConfig& config, const sim::RunConfig& base, std::uint64_t seed, const std::string& property,
                     const WorkloadPins& pins) {
  bool changed = false;
  const auto keep_if_violated = [&](const sim::RunConfig& candidate) {
    if (!shrink::judge_run(candidate, seed, property).violated()) return false;
    config = candidate;
    changed = true;
    return true;
  };
  if (config.renewal.watchdog && !pins.watchdog) {
    sim::RunConfig candidate = config;
    candidate.renewal.watchdog = false;
    const std::int64_t ttl_us = config.lock.ttl.count() * 1000;
    if (candidate.workload.hold_max_us > ttl_us && base.workload.hold_max_us <= ttl_us && !pins.hold_us) {
      candidate.workload.hold_max_us = ttl_us * 8 / 10 / 1000 * 1000;
      candidate.workload.hold_min_us = candidate.workload.hold_max_us / 2 / 1000 * 1000;
    }
    keep_if_violated(candidate);
  }
  if (config.workload.nest_every > 0) {
    sim::RunConfig candidate = config;
    candidate.workload.nest_every = 0;
    keep_if_violated(candidate);
  }
  // A drawn TTL back to the base's (holds scaled with it, as they were drawn against it).
  if (config.lock.ttl != base.lock.ttl && !pins.ttl_ms) {
    sim::RunConfig candidate = config;
    candidate.lock.ttl = base.lock.ttl;
    if (!pins.hold_us) {
      candidate.workload.hold_max_us = std::max<std::int64_t>(
          2000, config.workload.hold_max_us * base.lock.ttl.count() / config.lock.ttl.count() / 1000 * 1000);
      candidate.workload.hold_min_us = candidate.workload.hold_max_us / 2 / 1000 * 1000;
    }
    keep_if_violated(candidate);
  }
  int named = -1;
  for (const sim::FaultSpec& fault : config.faults) named = std::max(named, fault.process);
  while (config.clients.size() > std::max<std::size_t>(2, static_cast<std::size_t>(named + 1))) {
    sim::RunConfig candidate = config;
    candidate.clients.pop_back();
    if (!keep_if_violated(candidate)) break;
  }
  return changed;
}

// ", the faults moved" when the reference broke under a neighbour of the schedule, not the schedule itself.
std::string moved(const std::vector<sim::FaultSpec>& reference_faults, const std::vector<sim::FaultSpec>& faults) {
  return reference_faults == faults ? std::string() : std::string(", the faults moved");
}

}  // namespace

void WorkloadPins::apply(sim::RunConfig& config) const {
  if (check_lease) config.workload.check_lease_before_write = *check_lease;
  if (fencing) config.workload.fencing = *fencing;
  if (watchdog) config.renewal.watchdog = *watchdog;
  if (hold_us) {
    config.workload.hold_min_us = hold_us->first;
    config.workload.hold_max_us = hold_us->second;
  }
  if (ttl_ms) config.lock.ttl = Millis(*ttl_ms);
}

std::int64_t rarest_mark_runs(const MarkCounts& marks, const MarkCounts& runs_reaching) {
  std::int64_t fewest = std::numeric_limits<std::int64_t>::max();
  for (std::size_t m = 0; m < properties::kMarkCount; ++m) {
    if (marks[m] > 0) fewest = std::min(fewest, runs_reaching[m]);
  }
  return fewest;
}

std::string_view to_string(Strategy strategy) {
  switch (strategy) {
    case Strategy::all_on: return "all-on";
    case Strategy::swarm: return "swarm";
    case Strategy::guided: return "guided";
  }
  return "guided";
}

Explorer::Explorer(sim::RunConfig base, bool can_renew, ExploreOptions options)
    : base_(std::move(base)),
      can_renew_(can_renew),
      options_(std::move(options)),
      reference_(reference_variant(base_, options_.reference)),
      kinds_(searched_kinds(base_, options_.without)),
      shortest_run_us_(shortest_run_us(base_, options_.only_property)),
      shortest_unavailability_us_(shortest_run_us(base_, "bounded_unavailability")),
      prng_(sim::derive_seed(options_.seed, "explore")) {}

// A run's seed below 2^32: short to type in a replay, and within TOML's signed 64-bit integers.
std::uint64_t Explorer::run_seed() { return prng_.below(std::uint64_t{1} << 32) + 1; }

void Explorer::draw_fault_in(sim::FaultKind kind, sim::RunConfig& config) {
  // A run of the base's length draws as it always has (all-on and swarm are the benchmark's baselines);
  // a shorter one keeps a TTL after each fault, for the fault's effect to show before the run ends.
  if (config.duration_us < base_.duration_us) {
    draw_fault_to_play_out(kind, config, base_.lock.ttl.count() * 1000, prng_, config.faults);
  } else {
    draw_fault(kind, config, prng_, config.faults);
  }
}

RunPlan Explorer::fresh_plan(bool every_kind, std::int64_t duration_us) {
  RunPlan plan;
  plan.config = base_;
  plan.config.duration_us = duration_us;
  plan.seed = run_seed();
  draw_workload(base_, can_renew_, prng_, plan.config);
  options_.pins.apply(plan.config);
  const bool slow_link = options_.draw_links && options_.draw_links(plan.config, prng_);
  plan.enabled = every_kind ? kinds_ : swarm_subset(kinds_, prng_);
  // The starting scenario's own faults and nemesis are a starting point: drawn into the fixed schedule,
  // the nemesis within the run's own duration; a starting fault past a short run's end is left out.
  sim::RunConfig nemesis_base = base_;
  nemesis_base.duration_us = duration_us;
  for (const sim::FaultSpec& drawn : sim::draw_nemesis_schedule(nemesis_base, plan.seed)) plan.config.faults.push_back(drawn);
  if (duration_us < base_.duration_us) {
    std::erase_if(plan.config.faults, [&](const sim::FaultSpec& fault) { return fault.at_us > duration_us; });
  }
  plan.config.nemesis = sim::NemesisConfig{};
  leave_out(options_.without, plan.config.faults);
  std::int64_t count = plan.enabled.empty() ? 0 : prng_.between(1, fault_cap(duration_us));
  // A slow client is a fault of its own, and the smallest schedule comes first: half the runs that draw one
  // carry no other fault. A client's break that needs the slow link alone (redlock 5.0.0-beta.2's validity
  // check, #369) is otherwise met only among a storm of faults that breaks the reference lock too or hides it:
  // one root in five found it in ten minutes.
  if (slow_link && prng_.below(2) == 0) count = 0;
  for (std::int64_t i = 0; i < count; ++i) draw_fault_in(plan.enabled[prng_.below(plan.enabled.size())], plan.config);
  fit_processes(plan.config);
  normalize(plan.config.faults);
  return plan;
}

std::int64_t Explorer::fault_cap(std::int64_t duration_us) {
  if (options_.strategy != Strategy::guided) return options_.max_faults;
  // Guided's fresh runs are short, and a short run holds few lock operations for a fault to meet: what finds
  // a bug there is the faults' density, not their count. The cap per shortest run is drawn per run from
  // max_faults times 2, 4 or 8 (a swarm over densities: dense runs break what a fault or two cannot reach,
  // sparser ones what a crowd of faults would suppress; explore_bench's corpus needed the fewest runs with
  // these, against times 1, 2, 4 or 4, 8, 16), and scales with the run's length, so that a longer run of the
  // Luby schedule keeps its density.
  const std::int64_t per_shortest_run = static_cast<std::int64_t>(options_.max_faults) << (1 + prng_.below(3));
  return std::max<std::int64_t>(1, per_shortest_run * duration_us / std::max<std::int64_t>(1, shortest_run_us_));
}

RunPlan Explorer::mutated_plan() {
  // A tournament of two: the kept run whose rarest mark fewer runs reached is mutated. A rarely reached
  // milestone (a paused holder resumed after its validity, a release after expiry) is nearer a break than
  // one every run reaches, and its neighbourhood is the least searched.
  const std::size_t first = prng_.below(corpus_.size()), second = prng_.below(corpus_.size());
  const bool second_rarer = rarest_mark_runs(corpus_marks_[second], result_.runs_reaching) <
                            rarest_mark_runs(corpus_marks_[first], result_.runs_reaching);
  RunPlan plan = corpus_[second_rarer ? second : first];
  std::vector<sim::FaultSpec>& faults = plan.config.faults;
  const std::int64_t ttl_us = plan.config.lock.ttl.count() * 1000;
  const std::int64_t mutations = prng_.between(1, 3);
  for (std::int64_t m = 0; m < mutations; ++m) {
    switch (prng_.below(7)) {
      case 0: plan.seed = run_seed(); break;
      case 1:
        if (!faults.empty()) {
          sim::FaultSpec& fault = faults[prng_.below(faults.size())];
          fault.at_us = std::clamp<std::int64_t>(fault.at_us + prng_.between(-ttl_us, ttl_us), 0, plan.config.duration_us);
        }
        break;
      case 2:
        if (!faults.empty()) {
          sim::FaultSpec& fault = faults[prng_.below(faults.size())];
          const std::int64_t permille = prng_.between(500, 2000);
          fault.duration_us = fault.duration_us * permille / 1000;
          fault.delta_us = fault.delta_us * permille / 1000;
        }
        break;
      case 3: {
        // Mostly the run's own kinds; sometimes any kind, so a kept run can grow what its swarm left out.
        const bool any = prng_.below(4) == 0 || plan.enabled.empty();
        const std::vector<sim::FaultKind>& from = any ? kinds_ : plan.enabled;
        if (from.empty()) break;
        const sim::FaultKind kind = from[prng_.below(from.size())];
        if (any && std::find(plan.enabled.begin(), plan.enabled.end(), kind) == plan.enabled.end()) plan.enabled.push_back(kind);
        draw_fault_in(kind, plan.config);
        break;
      }
      case 4:
        if (faults.size() > 1) faults.erase(faults.begin() + static_cast<std::ptrdiff_t>(prng_.below(faults.size())));
        break;
      case 5:
        // A kept short run grows towards the base duration: what it reached may lead somewhere later. Never
        // shorter: a run draw_links lengthened past the base keeps its length and the faults in it.
        plan.config.duration_us = std::max(plan.config.duration_us, std::min(base_.duration_us, plan.config.duration_us * 2));
        break;
      default:
        draw_workload(base_, can_renew_, prng_, plan.config);
        options_.pins.apply(plan.config);
        // A kept run whose slow link was all it had needs a fault once the redraw leaves its links fast.
        if (options_.draw_links && !options_.draw_links(plan.config, prng_) && faults.empty() && !kinds_.empty()) {
          draw_fault_in(kinds_[prng_.below(kinds_.size())], plan.config);
        }
        break;
    }
  }
  fit_processes(plan.config);
  normalize(faults);
  return plan;
}

RunPlan Explorer::next_plan() {
  switch (options_.strategy) {
    case Strategy::all_on: return fresh_plan(true, base_.duration_us);
    case Strategy::swarm: return fresh_plan(false, base_.duration_us);
    case Strategy::guided: break;
  }
  // Two runs in three are fresh, with every fault kind on (short, dense runs: each a cheap draw from the
  // whole model); the third mutates a kept run.
  if (corpus_.empty() || prng_.below(3) != 0) {
    // Searching every property, one fresh run in three is long enough for a dead holder's lock to be judged
    // (a crash, then TTL and the bound): a swarm over properties, so that the short runs of the others do not
    // starve bounded_unavailability (a renew that piles up TTL showed only after 2,287 runs before).
    const bool for_unavailability = options_.only_property.empty() && prng_.below(3) == 0;
    const std::int64_t shortest_us = for_unavailability ? std::max(shortest_run_us_, shortest_unavailability_us_) : shortest_run_us_;
    // Half of them with a random subset of fault kinds (swarm testing): a storm of every kind hides what one
    // crash after a renewal shows (faults suppress each other).
    const bool every_kind = prng_.below(2) == 0;
    return fresh_plan(every_kind, fresh_duration_us(base_, ++fresh_runs_, shortest_us));
  }
  return mutated_plan();
}

bool Explorer::done() const {
  if (over_) return true;
  if (resumed_next_ < resumed_.size()) return false;
  return options_.budget_runs > 0 && own_runs() >= options_.budget_runs;
}

void Explorer::resume_from(std::vector<RunPlan> runs) {
  for (RunPlan& plan : runs) {
    // A kept run of an earlier search, fitted to this one: its pins and --without hold here too, and it runs
    // no longer than this base (the corpus may come from an earlier, longer starting scenario).
    options_.pins.apply(plan.config);
    leave_out(options_.without, plan.config.faults);
    plan.config.duration_us = std::min(plan.config.duration_us, base_.duration_us);
    std::erase_if(plan.config.faults, [&](const sim::FaultSpec& fault) { return fault.at_us > plan.config.duration_us; });
    fit_processes(plan.config);
    normalize(plan.config.faults);
    plan.enabled = kinds_;  // guided's own runs enable every kind searched
    resumed_.push_back(std::move(plan));
  }
}

bool Explorer::step() {
  if (done()) return false;
  std::vector<RunPlan> plans;
  // A batch is either resumed runs or runs of the search's own, so the budget counts only the latter.
  const bool resuming = resumed_next_ < resumed_.size();
  const std::size_t batch = std::max<std::size_t>(1, options_.batch);
  while (resuming && plans.size() < batch && resumed_next_ < resumed_.size()) plans.push_back(resumed_[resumed_next_++]);
  while (!resuming && plans.size() < batch && (options_.budget_runs == 0 || own_runs() + plans.size() < options_.budget_runs)) {
    plans.push_back(next_plan());
  }
  std::vector<Outcome> outcomes(plans.size());
  const auto may_end = [this](const Outcome& outcome) { return may_end_search(outcome.verdicts); };
  const std::string judged = options_.only_property.empty() ? "" : properties::split_selector(options_.only_property).first;
  const std::function<Outcome(const RunPlan&)> run =
      options_.run ? options_.run : [&judged](const RunPlan& plan) { return run_plan(plan, judged); };
  for (std::size_t next = 0; next < plans.size() && !over_;) {
    const std::size_t end = run_from(plans, next, options_.jobs, may_end, run, outcomes);
    for (; next < end && !over_; ++next) {
      over_ = take(plans[next], outcomes[next].exercise, outcomes[next].verdicts, outcomes[next].events);
      if (resuming) ++result_.corpus_loaded;
    }
  }
  return !done();
}

bool Explorer::may_end_search(const std::vector<properties::Verdict>& verdicts) const {
  // As take() decides, before any run of the batch is taken: found_ only grows by a find, which ends it.
  if (options_.all_properties && options_.only_property.empty()) return false;
  return std::any_of(verdicts.begin(), verdicts.end(), [this](const properties::Verdict& verdict) {
    const std::vector<properties::Verdict> slots = slot_verdicts(verdict);
    return std::any_of(slots.begin(), slots.end(), [this](const properties::Verdict& slot) {
      return found_.count(properties::selector(slot.property, slot.clause)) == 0 && wanted(slot);
    });
  });
}

bool Explorer::wanted(const properties::Verdict& slot) const {
  if (!options_.late_holders_count && properties::late_holder(slot)) return false;
  if (options_.only_property.empty()) return true;
  const auto [property, clause] = properties::split_selector(options_.only_property);
  return slot.property == property && (clause.empty() || slot.clause == clause);
}

std::vector<properties::Verdict> slot_verdicts(const properties::Verdict& verdict) {
  if (verdict.outcome != properties::Outcome::violated) return {};
  if (verdict.clauses.empty()) return {verdict};
  std::vector<properties::Verdict> out;
  for (const properties::Verdict::ClauseViolation& violation : verdict.clauses) {
    out.push_back(properties::restricted_to(verdict, violation.clause));
  }
  return out;
}

bool Explorer::take(const RunPlan& plan, const properties::Exercise& exercise,
                    const std::vector<properties::Verdict>& verdicts, std::uint64_t events) {
  ++result_.runs;
  result_.events += events;
  result_.exercise.add(exercise);
  bool novel = false;
  for (std::size_t m = 0; m < properties::kMarkCount; ++m) {
    if (exercise.marks[m] == 0) continue;
    novel = novel || result_.runs_reaching[m] == 0;
    ++result_.runs_reaching[m];
    for (std::size_t other = m + 1; other < properties::kMarkCount; ++other) {
      if (exercise.marks[other] > 0) novel = result_.pairs.insert({static_cast<int>(m), static_cast<int>(other)}).second || novel;
    }
  }
  if (novel && options_.strategy == Strategy::guided) {
    corpus_.push_back(plan);
    corpus_marks_.push_back(exercise.marks);
  }
  result_.corpus = corpus_.size();
  std::vector<properties::Verdict> slots;  // a violated property's clauses, each its own slot (verdict.hpp)
  for (const properties::Verdict& verdict : verdicts) {
    if (verdict.outcome == properties::Outcome::holds) ++result_.held[verdict.property];
    for (properties::Verdict& slot : slot_verdicts(verdict)) slots.push_back(std::move(slot));
  }
  for (const properties::Verdict& verdict : slots) {
    if (found_.count(properties::selector(verdict.property, verdict.clause)) > 0 || !wanted(verdict)) continue;
    Find find;
    find.property = verdict.property;
    find.clause = verdict.clause;
    find.run = result_.runs;
    find.plan = plan;
    find.minimal = plan;
    find.verdict = verdict;
    if (options_.judge_find) {
      const FindDecision decision = options_.judge_find(find);
      if (decision == FindDecision::not_confirmed) {
        ++result_.not_confirmed;
        continue;
      }
      if (decision == FindDecision::known_limit) {
        note_limit(std::move(find));
        continue;
      }
    } else if (!options_.decide) {
      find.decided_by = "not decided (every violation counts)";
      if (options_.shrink_simulations > 0) shrink_find(find);
    } else if (!decide(find) && !own_bug_once_shrunk(find)) {
      // A known limit neither ends the search nor takes the property's slot: the lock's own bug may be next.
      note_limit(std::move(find));
      continue;
    }
    found_.insert(find.selector());
    if (!options_.run) learn_from_minimal_run(find, options_.decide);
    result_.finds.push_back(std::move(find));
    if (!options_.all_properties || !options_.only_property.empty()) return true;
  }
  return false;
}

bool Explorer::decide(Find& find) {
  const std::string& property = find.property;
  const sim::Fencing fencing = base_.workload.fencing;
  // A reference lock is its own reference: the theory decides (known_limit.hpp), on the run as found first
  // (cheap), then on the shrunk schedule.
  const bool own_reference = reference_ == base_.variant;
  // A holder that used the resource after the validity its lock gave it had ended: the lock kept its promise,
  // the workload's careless holder did not (it writes without checking its lease, so that F4 shows). Every
  // lock without fencing fails so (F4, F21); --check-lease runs careful holders.
  // Asked of the run as found and again of the minimal run, whose first violation may be another (the gate at
  // 1000 runs, seed 339: shrunk to one loss, redisson-like's overlap became a late holder's after a nested acquire
  // that retried lost requests for a second, and was called the lock's own bug).
  const bool fenced_reads = fencing == sim::Fencing::reads_and_writes;
  const auto late_holders_limit = [&] {
    if (!properties::late_holder(find.verdict)) return false;
    if (property != "mutual_exclusion_client" && (property != "mutual_exclusion_resource" || fenced_reads)) return false;
    find.own_bug = false;
    find.decided_by = "the holder used the resource after the validity its lock gave it had ended: the lock kept its "
                      "promise, the holder did not check its lease (F4, F21; --check-lease runs careful holders)";
    return true;
  };
  const bool past_own_validity = properties::late_holder(find.verdict);
  if (late_holders_limit()) return false;
  if (own_reference) {
    find.reference.clear();
    if (const auto limit = known_limit_of_run(property, find.plan.config, find.plan.seed, fencing, find.verdict.tags)) {
      find.own_bug = false;
      find.decided_by = fmt::format("the theory: {} ('{}' is the reference lock of its kind)", limit->because, base_.variant);
      return false;
    }
  } else {
    find.reference = reference_;
    // The run as found: if the reference breaks too, the schedule holds a limit of the model (one simulation or
    // a few, and no shrink: known limits are common under every fault of the model).
    const ReferenceJudgement whole =
        judge_reference(find.plan.config, find.plan.seed, find.selector(), reference_, 1, past_own_validity);
    if (whole.ran && whole.violated) {
      find.own_bug = false;
      find.reference_seed = whole.seed;
      find.decided_by = fmt::format("the reference lock '{}' breaks it too under the same schedule (seed {}): {}",
                                    reference_, whole.seed, whole.cause);
      return false;
    }
  }
  if (options_.shrink_simulations > 0) shrink_find(find);
  if (late_holders_limit()) return false;
  if (own_reference) {
    const auto limit = known_limit_of_run(property, find.minimal.config, find.minimal.seed, fencing, find.verdict.tags);
    find.own_bug = !limit;
    find.decided_by = limit ? fmt::format("the theory: {} ('{}' is the reference lock of its kind)", limit->because, base_.variant)
                            : fmt::format("no case of the theory explains it, and '{}' is the reference lock of its kind",
                                          base_.variant);
    return find.own_bug;
  }
  const ReferenceJudgement minimal =
      judge_reference(find.minimal.config, find.minimal.seed, find.selector(), reference_, options_.reference_seeds,
                      past_own_validity);
  if (!minimal.ran) {
    // The reference cannot run this workload: the theory decides, as for a reference lock.
    const auto limit = known_limit_of_run(property, find.minimal.config, find.minimal.seed, fencing, find.verdict.tags);
    find.own_bug = !limit;
    find.decided_by = fmt::format("the theory ({} cannot run this workload){}", reference_, limit ? ": " + limit->because : "");
    return find.own_bug;
  }
  if (minimal.violated) {
    find.own_bug = false;
    find.reference_seed = minimal.seed;
    find.decided_by = fmt::format("the reference lock '{}' breaks it too under the minimal schedule (seed {}{}): {}",
                                  reference_, minimal.seed, moved(minimal.faults, find.minimal.config.faults), minimal.cause);
    return false;
  }
  // The run's own facts: a fault, not a command, took the first owner's key, or the holder's clock ran slow past
  // the lock's margin (the reference, timed otherwise, may never meet that coincidence). The theory names the case.
  if (const auto shown = shown_by_the_run(property, find.verdict, find.minimal.config, find.minimal.seed, fencing)) {
    if (const auto limit = known_limit_of_run(property, find.minimal.config, find.minimal.seed, fencing, find.verdict.tags)) {
      find.own_bug = false;
      find.decided_by = fmt::format("the run's own facts: {}; a fault did it, not the lock ({})", *shown, limit->because);
      return false;
    }
  }
  if (const std::optional<Find> met = reference_search(find)) {
    find.own_bug = false;
    find.reference_seed = met->plan.seed;
    std::vector<std::string> schedule;
    for (const sim::FaultSpec& fault : met->plan.config.faults) schedule.push_back(sim::describe(fault));
    find.decided_by = fmt::format("the reference lock '{}' breaks it too under the same kinds of fault (its run {} of a "
                                  "search of {}, seed {}: {}): {}",
                                  reference_, met->run, options_.reference_search_runs, met->plan.seed,
                                  fmt::join(schedule, "; "), met->verdict.cause);
    return false;
  }
  find.own_bug = true;
  find.decided_by = fmt::format("the reference lock '{}' keeps it under the same faults and workload ({} runs: seeds {}..{}, "
                                "the faults moved up to a TTL and scaled) and in {} runs of its own under the same kinds of fault",
                                reference_, minimal.simulations, find.minimal.seed,
                                find.minimal.seed + static_cast<std::uint64_t>(minimal.simulations) - 1,
                                options_.reference_search_runs);
  return true;
}

std::optional<Find> Explorer::reference_search(const Find& find) const {
  if (options_.reference_search_runs == 0) return std::nullopt;
  // The kinds the minimal schedule holds (a follow-up, a restart or a heal, comes with its fault).
  std::vector<sim::FaultKind> kinds;
  for (const sim::FaultSpec& fault : find.minimal.config.faults) {
    if (drawn_on_its_own(fault.kind) && std::find(kinds.begin(), kinds.end(), fault.kind) == kinds.end()) kinds.push_back(fault.kind);
  }
  ExploreOptions search;
  search.seed = sim::derive_seed(find.minimal.seed, "reference search");
  search.budget_runs = options_.reference_search_runs;
  search.only_property = find.selector();
  search.shrink_simulations = 0;
  search.decide = false;
  search.late_holders_count = properties::late_holder(find.verdict);
  search.pins = options_.pins;
  for (const sim::FaultKind kind : applicable_kinds(base_)) {
    if (drawn_on_its_own(kind) && std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) search.without.push_back(kind);
  }
  const bool can_renew = reference_can_renew(base_, reference_);
  // A lock that renewed is compared with a reference that renews (with_reference_lock turned its watchdog on).
  if (can_renew && (find.minimal.config.renewal.watchdog || variant_row(base_.variant).renewal == Renewal::in_background)) {
    search.pins.watchdog = true;
  }
  try {
    sim::RunConfig reference_base = with_reference_lock(base_, reference_);
    reference_base.faults.clear();
    reference_base.nemesis = sim::NemesisConfig{};
    Explorer reference(reference_base, can_renew, search);
    // Bounded by the run budget: each step runs a batch.
    for (std::uint64_t step = 0; step <= search.budget_runs && reference.step(); ++step) {
    }
    if (!reference.result().finds.empty()) return reference.result().finds.front();
  } catch (const std::invalid_argument&) {
    // The reference cannot run this base (a capability it lacks): it finds nothing.
  }
  return std::nullopt;
}

void Explorer::learn_from_minimal_run(Find& find, bool tell_story) {
  const bool minimal_is_plan = find.minimal.config.faults == find.plan.config.faults &&
                               find.minimal.config.duration_us == find.plan.config.duration_us;
  if (minimal_is_plan && !tell_story) return;
  // One simulation serves both: the marks and the story.
  const properties::History history =
      properties::parse_history(sim::simulate(find.minimal.config, find.minimal.seed).history);
  if (!minimal_is_plan) {
    // The minimal run is a run of the search too: a mark it reaches is reached (a find under a clock jump while
    // the lock was held must not leave that mark "never").
    const properties::Exercise exercise = properties::exercise_of(history);
    for (std::size_t m = 0; m < properties::kMarkCount; ++m) {
      if (exercise.marks[m] > 0 && result_.runs_reaching[m] == 0) result_.runs_reaching[m] = 1;
    }
  }
  if (!tell_story) return;
  const shrink::Judged judged = shrink::judge_history(history, find.selector());
  if (judged.violated()) find.story = explain_find(history, judged.verdict);
}

bool Explorer::own_bug_once_shrunk(Find& find) {
  const bool first_of_property = std::none_of(result_.limits.begin(), result_.limits.end(), [&](const ExploreResult::LimitMet& met) {
    return met.example.selector() == find.selector();
  });
  if (!first_of_property || options_.shrink_simulations == 0 || options_.run) return false;
  if (find.shrink_simulations == 0) shrink_find(find);
  const sim::RunConfig& shrunk = find.minimal.config;
  const sim::RunConfig& found = find.plan.config;
  if (shrunk.faults == found.faults && shrunk.clients.size() == found.clients.size() && shrunk.lock.ttl == found.lock.ttl &&
      shrunk.renewal.watchdog == found.renewal.watchdog && shrunk.workload.nest_every == found.workload.nest_every &&
      shrunk.workload.hold_max_us == found.workload.hold_max_us && shrunk.duration_us == found.duration_us) {
    return false;  // the run decided already
  }
  Find again = find;
  again.plan = find.minimal;
  again.own_bug = false;
  again.shrink_simulations = 0;
  if (!decide(again)) return false;
  find = std::move(again);
  return true;
}

void Explorer::note_limit(Find find) {
  for (ExploreResult::LimitMet& met : result_.limits) {
    if (met.example.selector() != find.selector()) continue;
    ++met.runs;
    return;
  }
  // The first of its property is shown shrunk, as an example (the reference decided on the run as found).
  if (!options_.run) {  // a real run's limit was confirmed and shrunk by its judge
    if (options_.shrink_simulations > 0 && find.shrink_simulations == 0) shrink_find(find);
    learn_from_minimal_run(find, true);
  }
  result_.limits.push_back(ExploreResult::LimitMet{std::move(find), 1});
}

void Explorer::shrink_find(Find& find) const {
  const RunPlan& plan = find.plan;
  const std::string property = find.selector();
  const shrink::ShrinkResult shrunk = shrink::shrink_faults(plan.config, plan.seed, property, options_.shrink_simulations);
  find.shrink_simulations = shrunk.simulations;
  if (!shrunk.reproduced) return;
  find.minimal.config.faults = shrunk.faults;
  find.violation_us = shrunk.violation_us;
  // A simpler workload may need fewer faults (or none): shrink the faults once more after it.
  if (shrink_workload(find.minimal.config, base_, plan.seed, property, options_.pins)) {
    const shrink::ShrinkResult again = shrink::shrink_faults(find.minimal.config, plan.seed, property, options_.shrink_simulations);
    find.shrink_simulations += again.simulations;
    if (again.reproduced) {
      find.minimal.config.faults = again.faults;
      find.violation_us = again.violation_us;
    }
  }
  // A shorter run that still shows it is a faster regression test: end one second after the violation.
  sim::RunConfig shorter = find.minimal.config;
  shorter.duration_us = std::min(shorter.duration_us, (find.violation_us / 1000 + 1000) * 1000);
  if (shorter.duration_us < find.minimal.config.duration_us) {
    std::erase_if(shorter.faults, [&](const sim::FaultSpec& fault) { return fault.at_us > shorter.duration_us; });
    if (shrink::judge_run(shorter, plan.seed, property).violated()) find.minimal.config = shorter;
  }
  const shrink::Judged final_verdict = shrink::judge_run(find.minimal.config, plan.seed, property);
  find.verdict = final_verdict.verdict;
  find.violation_us = final_verdict.violation_us;
  find.one_minimal = shrink::is_one_minimal(find.minimal.config, plan.seed, property);
  find.shrink_simulations += 1 + static_cast<int>(find.minimal.config.faults.size());
}

sim::RunConfig explore_base_for_variant(const std::string& variant) {
  sim::RunConfig config = sim::variant_base_config(variant);
  config.duration_us = 10'000'000;
  // A single master gets a replica, so that failover is in the model. A quorum lock's independent masters
  // stay unreplicated: Redlock's model has none (replication is its documented way to lose a lock).
  const bool topology = config.cluster.shards > 0 || config.sentinel.sentinels > 0;
  const bool has_replica =
      std::any_of(config.nodes.begin(), config.nodes.end(), [](const sim::NodeConfig& node) { return node.replica_of >= 0; });
  if (!topology && !has_replica && config.nodes.size() == 1) {
    sim::NodeConfig replica;
    replica.replica_of = 0;
    config.nodes.push_back(replica);
  }
  return config;
}

}  // namespace lockcheck::explore
