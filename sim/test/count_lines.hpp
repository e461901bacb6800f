#pragma once
// How many lines of a run's history contain a fragment: the simulator tests' way to look for events.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

#include "core/simulate.hpp"

namespace lockcheck::sim {

inline std::size_t count_lines(const RunResult& run, const std::string& needle) {
  std::size_t count = 0;
  for (const auto& line : run.history.lines()) count += line.find(needle) != std::string::npos ? 1 : 0;
  return count;
}

// The lines containing `needle` recorded at true times in [from_us, to_us).
inline std::size_t count_lines_between(const RunResult& run, const std::string& needle, std::int64_t from_us,
                                       std::int64_t to_us = std::numeric_limits<std::int64_t>::max()) {
  std::size_t count = 0;
  for (const auto& line : run.history.lines()) {
    if (line.find(needle) == std::string::npos) continue;
    const std::int64_t t = std::stoll(line.substr(line.find(R"("t":)") + 4));
    count += t >= from_us && t < to_us ? 1 : 0;
  }
  return count;
}

}  // namespace lockcheck::sim
