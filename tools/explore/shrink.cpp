#include "shrink.hpp"

#include <algorithm>
#include <map>

#include "core/simulate.hpp"
#include "properties/checkers.hpp"

namespace lockcheck::explore {

Judged judge_run(const sim::SimConfig& config, std::uint64_t seed, const std::string& property) {
  return judge_history(properties::parse_history_lines(sim::simulate(config, seed).history.lines()), property);
}

Judged judge_history(const properties::History& history, const std::string& property) {
  Judged judged;
  for (auto& verdict : properties::check_all(history)) {
    if (verdict.property != property) continue;
    judged.verdict = std::move(verdict);
    break;
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
void drop_faults_after_violation(const sim::SimConfig& fixed, std::uint64_t seed, const std::string& property,
                                 ShrinkResult& result) {
  sim::SimConfig before = fixed;
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

ShrinkResult shrink_faults(const sim::SimConfig& config, std::uint64_t seed, const std::string& property,
                           int max_simulations) {
  sim::SimConfig fixed = config;
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

  // ddmin: try removing each of n chunks; on success keep the smaller schedule, else refine the chunks.
  std::size_t chunks = 2;
  while (!result.faults.empty() && result.simulations < max_simulations) {
    const std::size_t size = result.faults.size();
    chunks = std::min(chunks, size);
    bool removed = false;
    for (std::size_t chunk = 0; chunk < chunks && result.simulations < max_simulations; ++chunk) {
      const std::size_t begin = size * chunk / chunks, end = size * (chunk + 1) / chunks;
      sim::SimConfig candidate = fixed;
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
  drop_faults_after_violation(fixed, seed, property, result);
  return result;
}

}  // namespace lockcheck::explore
