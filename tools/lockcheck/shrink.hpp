#pragma once
// Shrinks a failing run to a minimal fault schedule by delta debugging (Zeller's ddmin) over the faults:
// the random nemesis is first drawn into its fixed schedule, then chunks of faults are removed for as long
// as the same seed still violates the property. Bounded by a number of simulations.
#include <cstdint>
#include <string>
#include <vector>

#include "core/config.hpp"

namespace lockcheck::cli {

struct ShrinkResult {
  std::vector<sim::FaultSpec> faults;  // a schedule that still violates, 1-minimal if the budget allowed
  int simulations = 0;
  bool reproduced = false;             // the full schedule violated again (it must: determinism)
};

ShrinkResult shrink_faults(const sim::SimConfig& config, std::uint64_t seed, const std::string& property,
                           int max_simulations = 64);

std::string describe_fault(const sim::FaultSpec& fault);

}  // namespace lockcheck::cli
