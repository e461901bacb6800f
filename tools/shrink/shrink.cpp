#include "shrink.hpp"

#include <algorithm>
#include <functional>
#include <map>

#include "core/simulate.hpp"
#include "properties/checkers.hpp"

namespace lockcheck::shrink {

Judged judge_run(const sim::RunConfig& config, std::uint64_t seed, const std::string& property) {
  return judge_history(properties::parse_history(sim::simulate(config, seed).history), property);
}

Judged judge_history(const properties::History& history, const std::string& selector) {
  const auto [property, clause] = properties::split_selector(selector);
  Judged judged;
  for (auto& verdict : properties::check_all(history)) {
    if (verdict.property != property) continue;
    judged.verdict = std::move(verdict);
    break;
  }
  if (!clause.empty()) {
    judged.clause_broken = properties::violated_clause(judged.verdict, clause);
    if (judged.clause_broken) judged.verdict = properties::restricted_to(judged.verdict, clause);
  }
  if (!judged.violated()) return judged;
  std::map<std::int64_t, std::int64_t> time_of;
  for (const properties::Event& event : history.events) time_of[properties::event_index(event)] = properties::event_time(event);
  for (const std::int64_t line : judged.verdict.witnesses) {
    if (const auto found = time_of.find(line); found != time_of.end()) judged.violation_us = std::max(judged.violation_us, found->second);
  }
  return judged;
}

namespace {

// A fault after the violation cannot have caused it; without them the run up to the violation is the same.
// Run after ddmin only: run first, it sent setnx-then-expire's 2-fault find to a 14-fault local minimum.
void drop_faults_after_violation(const sim::RunConfig& fixed, std::uint64_t seed, const std::string& property,
                                 ShrinkResult& result) {
  sim::RunConfig before = fixed;
  before.faults.clear();
  for (const sim::FaultSpec& fault : result.faults) {
    if (fault.at_us <= result.violation_us) before.faults.push_back(fault);
  }
  if (before.faults.size() == result.faults.size()) return;
  ++result.simulations;
  const Judged attempt = judge_run(before, seed, property);
  if (!attempt.violated()) return;
  result.faults = before.faults;
  result.violation_us = attempt.violation_us;
}

}  // namespace

namespace {

// ddmin: try removing each of n chunks; on success keep the smaller schedule, else refine the chunks. Bounded
// by `budget` simulations in all.
void delta_debug(const sim::RunConfig& fixed, std::uint64_t seed, const std::string& property, int budget,
                 ShrinkResult& result) {
  std::size_t chunks = 2;
  while (!result.faults.empty() && result.simulations < budget) {
    const std::size_t size = result.faults.size();
    chunks = std::min(chunks, size);
    bool removed = false;
    for (std::size_t chunk = 0; chunk < chunks && result.simulations < budget; ++chunk) {
      const std::size_t begin = size * chunk / chunks, end = size * (chunk + 1) / chunks;
      sim::RunConfig candidate = fixed;
      candidate.faults.clear();
      for (std::size_t i = 0; i < size; ++i) {
        if (i < begin || i >= end) candidate.faults.push_back(result.faults[i]);
      }
      ++result.simulations;
      const Judged attempt = judge_run(candidate, seed, property);
      if (attempt.violated()) {
        result.faults = candidate.faults;
        result.violation_us = attempt.violation_us;
        chunks = chunks > 2 ? chunks - 1 : 2;
        removed = true;
        break;
      }
    }
    if (!removed) {
      if (chunks >= size) break;  // every single fault is needed: 1-minimal
      chunks = std::min(size, chunks * 2);
    }
  }
}

// Removes single faults until none can be removed (then result.one_minimal), within the budget.
void remove_single_faults(const sim::RunConfig& fixed, std::uint64_t seed, const std::string& property, int budget,
                          ShrinkResult& result) {
  result.one_minimal = false;
  // Each pass removes one fault or proves none can go: at most as many passes as faults.
  for (std::size_t pass = 0; pass <= fixed.faults.size(); ++pass) {
    bool removed = false;
    for (std::size_t i = 0; i < result.faults.size(); ++i) {
      if (result.simulations >= budget) return;
      sim::RunConfig candidate = fixed;
      candidate.faults = result.faults;
      candidate.faults.erase(candidate.faults.begin() + static_cast<std::ptrdiff_t>(i));
      ++result.simulations;
      const Judged attempt = judge_run(candidate, seed, property);
      if (attempt.violated()) {
        result.faults = std::move(candidate.faults);
        result.violation_us = attempt.violation_us;
        removed = true;
        break;
      }
    }
    if (!removed) {
      result.one_minimal = true;
      return;
    }
  }
}

// The sizes a fault carries, each halved while the violation stays: durations and clock steps in whole
// milliseconds (the scenario format's unit), drifts in ppm. A loss rate of 0 ends a loss period: left alone.
struct Size {
  std::int64_t sim::FaultSpec::*field;
  std::int64_t unit;
};
constexpr Size kSizes[] = {{&sim::FaultSpec::duration_us, 1000}, {&sim::FaultSpec::delta_us, 1000}, {&sim::FaultSpec::drift_ppm, 1}};

// Tries `change` on fault `index`, keeps it when the violation stays; false when it does not (or nothing changed).
bool keep_if_still_violated(const sim::RunConfig& fixed, std::uint64_t seed, const std::string& property, std::size_t index,
                            const std::function<bool(sim::FaultSpec&)>& change, ShrinkResult& result) {
  sim::RunConfig candidate = fixed;
  candidate.faults = result.faults;
  if (!change(candidate.faults[index])) return false;
  ++result.simulations;
  const Judged attempt = judge_run(candidate, seed, property);
  if (!attempt.violated()) return false;
  result.faults = std::move(candidate.faults);
  result.violation_us = attempt.violation_us;
  return true;
}

void halve_sizes(const sim::RunConfig& fixed, std::uint64_t seed, const std::string& property, int budget,
                 ShrinkResult& result) {
  constexpr int kHalvings = 6;  // down to 1/64 of a size
  for (std::size_t i = 0; i < result.faults.size(); ++i) {
    for (const Size& size : kSizes) {
      const auto halve = [&](sim::FaultSpec& fault) {
        std::int64_t& value = fault.*size.field;
        const std::int64_t halved = value / 2 / size.unit * size.unit;
        if (halved == 0 || halved == value) return false;
        value = halved;
        return true;
      };
      for (int step = 0; step < kHalvings && result.simulations < budget; ++step) {
        if (!keep_if_still_violated(fixed, seed, property, i, halve, result)) break;
      }
    }
    for (std::uint32_t sim::FaultSpec::*rate : {&sim::FaultSpec::request_loss_ppm, &sim::FaultSpec::reply_loss_ppm}) {
      const auto halve = [&](sim::FaultSpec& fault) {
        if (fault.*rate < 2) return false;
        fault.*rate /= 2;
        return true;
      };
      for (int step = 0; step < kHalvings && result.simulations < budget; ++step) {
        if (!keep_if_still_violated(fixed, seed, property, i, halve, result)) break;
      }
    }
  }
}

}  // namespace

ShrinkResult shrink_faults(const sim::RunConfig& config, std::uint64_t seed, const std::string& property,
                           int max_simulations) {
  sim::RunConfig fixed = config;
  for (auto& drawn : sim::draw_nemesis_schedule(config, seed)) fixed.faults.push_back(drawn);
  std::stable_sort(fixed.faults.begin(), fixed.faults.end(),
                   [](const sim::FaultSpec& a, const sim::FaultSpec& b) { return a.at_us < b.at_us; });
  fixed.nemesis = sim::NemesisConfig{};

  ShrinkResult result;
  result.faults = fixed.faults;
  ++result.simulations;
  Judged judged = judge_run(fixed, seed, property);
  result.reproduced = judged.violated();
  if (!result.reproduced) return result;
  result.violation_us = judged.violation_us;

  // ddmin takes at most half the budget: a large schedule it cannot finish still gets its single removals.
  delta_debug(fixed, seed, property, std::max(1, max_simulations / 2), result);
  remove_single_faults(fixed, seed, property, max_simulations, result);
  if (result.one_minimal) {
    const std::vector<sim::FaultSpec> before = result.faults;
    halve_sizes(fixed, seed, property, max_simulations, result);
    // Smaller faults may leave one unneeded.
    if (result.faults != before) remove_single_faults(fixed, seed, property, max_simulations, result);
  }
  const std::size_t kept = result.faults.size();
  drop_faults_after_violation(fixed, seed, property, result);
  // Dropping faults after the violation keeps it 1-minimal only if none was dropped (an unneeded fault then
  // stood after it): said as it is.
  if (result.faults.size() != kept) result.one_minimal = false;
  return result;
}

bool is_one_minimal(const sim::RunConfig& config, std::uint64_t seed, const std::string& property) {
  if (!judge_run(config, seed, property).violated()) return false;
  for (std::size_t i = 0; i < config.faults.size(); ++i) {
    sim::RunConfig without = config;
    without.faults.erase(without.faults.begin() + static_cast<std::ptrdiff_t>(i));
    if (judge_run(without, seed, property).violated()) return false;
  }
  return true;
}

}  // namespace lockcheck::shrink
