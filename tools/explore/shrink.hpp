#pragma once
// Shrinks a failing run to a minimal fault schedule by delta debugging (Zeller's ddmin) over the faults:
// the random nemesis is first drawn into its fixed schedule, then chunks of faults are removed for as long
// as the same seed still violates the property; last, every fault after the violation is dropped (it cannot
// have caused it). Bounded by a number of simulations. The result, written as `[[faults]]` of a scenario
// without `[nemesis]`, with the same seed, reproduces the violation: the shrinker ran exactly that.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/config.hpp"
#include "properties/history.hpp"
#include "properties/verdict.hpp"

namespace lockcheck::explore {

// The property's verdict on one simulated run, and the true time of its last witness line (when the
// verdict is a violation): how the shrinkers test a candidate.
struct Judged {
  properties::Verdict verdict;
  std::int64_t violation_us = -1;
  bool violated() const { return verdict.outcome == properties::Outcome::violated; }
};
Judged judge_run(const sim::SimConfig& config, std::uint64_t seed, const std::string& property);
// The same judgement of a history already run.
Judged judge_history(const properties::History& history, const std::string& property);

struct ShrinkResult {
  std::vector<sim::FaultSpec> faults;  // a schedule that still violates, 1-minimal if the budget allowed
  int simulations = 0;
  bool reproduced = false;             // the full schedule violated again (it must: determinism)
  std::int64_t violation_us = -1;      // when the shrunk schedule's violation shows
};

// `config`'s nemesis is drawn into fixed faults first; the result's schedule replaces both.
ShrinkResult shrink_faults(const sim::SimConfig& config, std::uint64_t seed, const std::string& property,
                           int max_simulations = 64);

}  // namespace lockcheck::explore
