#pragma once
// Where a command's keys are among its arguments, as COMMAND GETKEYS finds them, from its row's KeySpec
// (key_spec.hpp): COMMAND (commands/admin) and the ACL key checks (acl/acl_key_access.cpp) read it.
#include <cstddef>
#include <optional>
#include <vector>

#include "lockcheck/reply.hpp"

namespace lockcheck::mock {

// Indexes into `args` (args[0] is the command) of its keys, in order; nullopt when a count of keys is invalid
// (EVAL, FCALL, SINTERCARD); empty for a command without keys or one the table lacks. `args` has passed the
// arity check.
std::optional<std::vector<std::size_t>> command_key_indexes(const Command& args);

}  // namespace lockcheck::mock
