#pragma once
// The history's meta line (line 0) for a run of `config`, shared by the simulator and the redis backend so
// both say the same about what was run, including how the variant keeps its lock (lockcheck::lock_shape:
// derived keys, quorum), which the checkers need to judge it.
#include <cstdint>

#include "core/config.hpp"
#include "core/history.hpp"

namespace lockcheck::sim {

Json history_meta(const SimConfig& config, std::uint64_t seed);

}  // namespace lockcheck::sim
