#pragma once
// Where a command's keys are among its arguments, as COMMAND GETKEYS finds them: COMMAND (commands/admin) and
// the ACL key checks (acl/acl_key_access.cpp) read it.
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "lockcheck/reply.hpp"

namespace lockcheck::mock {

// The first and last key argument and the step between keys, as COMMAND INFO shows them (last -1: to the end,
// -2: all but the last); first 0: no keys.
struct KeyPositions {
  int first = 1, last = 1, step = 1;
};

// Commands whose keys are not just argument 1: none, all remaining, pairs, or given by numkeys (EVAL: movable).
// By the command's lower-case name.
KeyPositions key_positions(std::string_view name);

// Indexes into `args` (args[0] is the command) of its keys, in order; nullopt when a numkeys argument is
// invalid (EVAL, FCALL, SINTERCARD); empty for a command without keys. `args` has passed the arity check.
std::optional<std::vector<std::size_t>> command_key_indexes(const Command& args);

}  // namespace lockcheck::mock
