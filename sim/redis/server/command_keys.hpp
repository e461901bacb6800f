#pragma once
// Where a command's keys are among its arguments, as COMMAND GETKEYS finds them (commands_command.cpp).
#include <cstddef>
#include <optional>
#include <vector>

#include "lockcheck/reply.hpp"

namespace lockcheck::mock {

// Indexes into `args` (args[0] is the command) of its keys, in order; nullopt when a numkeys argument is
// invalid (EVAL, FCALL, SINTERCARD); empty for a command without keys. `args` has passed the arity check.
std::optional<std::vector<std::size_t>> command_key_indexes(const Command& args);

}  // namespace lockcheck::mock
