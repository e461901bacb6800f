#include "shrink.hpp"

#include <fmt/format.h>

#include "properties/checkers.hpp"
#include "core/simulate.hpp"

namespace lockcheck::cli {
namespace {

bool violates(const sim::SimConfig& config, std::uint64_t seed, const std::string& property) {
  const sim::RunResult run = sim::simulate(config, seed);
  const properties::History history = properties::parse_history(run.history.jsonl());
  for (const auto& verdict : properties::check_all(history)) {
    if (verdict.property == property) return verdict.outcome == properties::Outcome::violated;
  }
  return false;
}

}  // namespace

std::string describe_fault(const sim::FaultSpec& fault) {
  std::string text = fmt::format("t={}ms {}", fault.at_us / 1000, fault.kind);
  if (fault.process >= 0) text += fmt::format(" process={}", fault.process);
  if (fault.node >= 0) text += fmt::format(" node={}", fault.node);
  if (fault.duration_us != 0) text += fmt::format(" duration={}ms", fault.duration_us / 1000);
  if (fault.delta_us != 0) text += fmt::format(" delta={}ms", fault.delta_us / 1000);
  if (fault.drift_ppm != 0) text += fmt::format(" drift={}ppm", fault.drift_ppm);
  return text;
}

ShrinkResult shrink_faults(const sim::SimConfig& config, std::uint64_t seed, const std::string& property,
                           int max_simulations) {
  sim::SimConfig fixed = config;
  fixed.faults = config.faults;
  for (auto& drawn : sim::draw_nemesis_schedule(config, seed)) fixed.faults.push_back(drawn);
  fixed.nemesis = sim::NemesisConfig{};

  ShrinkResult result;
  result.faults = fixed.faults;
  ++result.simulations;
  result.reproduced = violates(fixed, seed, property);
  if (!result.reproduced) return result;

  // ddmin: try removing each of n chunks; on success keep the smaller schedule, else refine the chunks.
  std::size_t chunks = 2;
  while (result.faults.size() >= 1 && result.simulations < max_simulations) {
    const std::size_t size = result.faults.size();
    if (chunks > size) chunks = size;
    if (chunks == 0) break;
    bool removed = false;
    for (std::size_t chunk = 0; chunk < chunks && result.simulations < max_simulations; ++chunk) {
      const std::size_t begin = size * chunk / chunks, end = size * (chunk + 1) / chunks;
      sim::SimConfig candidate = fixed;
      candidate.faults.clear();
      for (std::size_t i = 0; i < size; ++i) {
        if (i < begin || i >= end) candidate.faults.push_back(result.faults[i]);
      }
      ++result.simulations;
      if (violates(candidate, seed, property)) {
        result.faults = candidate.faults;
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
  return result;
}

}  // namespace lockcheck::cli
