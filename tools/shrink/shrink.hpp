#pragma once
// Shrinks a failing run to a minimal fault schedule: the random nemesis is first drawn into its fixed
// schedule; delta debugging (Zeller's ddmin) removes chunks of faults for as long as the same seed still
// violates the property; then single faults are removed until none can be (1-minimal: every fault left is
// needed on this seed); then each fault's size (a duration, a clock step or drift, a loss rate) is halved
// while the violation stays, and the schedule made 1-minimal again; last, every fault after the violation is
// dropped (it cannot have caused it). Bounded by a number of simulations. The result, written as
// `[[faults]]` of a scenario without `[nemesis]`, with the same seed, reproduces the violation: the shrinker
// ran exactly that.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/run_config.hpp"
#include "properties/history.hpp"
#include "properties/verdict.hpp"

namespace lockcheck::shrink {

// The property's verdict on one simulated run, and the true time of its last witness line (when the
// verdict is a violation): how the shrinkers test a candidate.
// `property` everywhere here is a selector (properties/verdict.hpp): "latch" judges the property, and
// "latch/never_opened" that one clause of it, with that clause's witnesses.
struct Judged {
  properties::Verdict verdict;
  std::int64_t violation_us = -1;
  bool clause_broken = true;  // the selector's clause was among those broken (always, without a clause)
  bool violated() const { return verdict.outcome == properties::Outcome::violated && clause_broken; }
};
Judged judge_run(const sim::RunConfig& config, std::uint64_t seed, const std::string& property);
// The same judgement of a history already run.
Judged judge_history(const properties::History& history, const std::string& property);

struct ShrinkResult {
  std::vector<sim::FaultSpec> faults;  // a schedule that still violates, 1-minimal if the budget allowed
  int simulations = 0;
  bool reproduced = false;             // the full schedule violated again (it must: determinism)
  bool one_minimal = false;            // removing any one fault left makes the violation vanish (checked)
  std::int64_t violation_us = -1;      // when the shrunk schedule's violation shows
};

// `config`'s nemesis is drawn into fixed faults first; the result's schedule replaces both.
ShrinkResult shrink_faults(const sim::RunConfig& config, std::uint64_t seed, const std::string& property,
                           int max_simulations = 64);

// Whether `config`'s schedule is 1-minimal for `property` on `seed`: it violates, and without any one of its
// faults it does not (one simulation per fault, and one for the whole).
bool is_one_minimal(const sim::RunConfig& config, std::uint64_t seed, const std::string& property);

}  // namespace lockcheck::shrink
