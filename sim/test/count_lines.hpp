#pragma once
// How many lines of a run's history contain a fragment: the simulator tests' way to look for events.
#include <cstddef>
#include <string>

#include "core/simulate.hpp"

namespace lockcheck::sim {

inline std::size_t count_lines(const RunResult& run, const std::string& needle) {
  std::size_t count = 0;
  for (const auto& line : run.history.lines()) count += line.find(needle) != std::string::npos ? 1 : 0;
  return count;
}

}  // namespace lockcheck::sim
