#pragma once
// Container commands (CLIENT, COMMAND, CONFIG, SCRIPT): a row of the command table with subcommands (each family
// lists its containers' in its rows). processCommand checks a subcommand's existence and arity before NOAUTH and
// before MULTI queues it (a bad one fails at once and makes EXEC answer EXECABORT); the node does the same.
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "lockcheck/reply.hpp"

namespace lockcheck::mock {

struct CommandSpec;

// The error Redis answers for `args` before running it (unknown subcommand, subcommand arity), if any.
std::optional<Reply> subcommand_error(const Command& args);
// Whether `spec` is a container: only for those may subcommand_error answer, so a node asks it only then.
bool is_container_command(const CommandSpec& spec);

// A container's subcommand that 7.0.15 flags noscript while the container itself is not (CLUSTER RESET).
bool subcommand_denied_in_scripts(const Command& args);

// The name Redis's errors give a command: "pubsub|numpat" for a container's subcommand, else the name, lower case.
std::string full_command_name(const Command& args);

// A container's HELP as Redis's addReplyHelp writes it: a usage line, `lines`, then HELP itself (status lines).
Reply subcommand_help(std::string_view container_upper, std::initializer_list<std::string_view> lines);

}  // namespace lockcheck::mock
