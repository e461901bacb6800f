#pragma once
// The node every mock fuzzer talks to: a frozen clock (so runs are reproducible) and a script budget small
// enough that a runaway script ends in milliseconds; the mechanism is the one `serve` uses with its defaults.
#include "redis/server/node.hpp"

namespace lockcheck::mock::fuzzing {

inline NodeOptions fuzz_node_options() {
  return NodeOptions{
      .clock = [] { return std::int64_t{1'700'000'000'000}; },
      .script_instruction_limit = 1'000'000,
      .script_memory_limit_bytes = 32u << 20,
  };
}

}  // namespace lockcheck::mock::fuzzing
