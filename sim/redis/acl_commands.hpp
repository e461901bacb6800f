#pragma once
// The commands ACL rules can name: every command of the mock's table and every subcommand ("config|get"),
// each with an id (a bit in a user's command bitmap) and its 7.0.15 categories.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "lockcheck/reply.hpp"

namespace lockcheck::mock {

struct AclCommand {
  std::string full_name;        // "get", "config|get"
  std::uint32_t categories;     // AclCategory bits
  std::optional<std::size_t> parent;  // a subcommand's container
  std::size_t first_child = 0, child_count = 0;  // a container's subcommands: ids [first_child, +count)
};

// All of them: main commands in the table's order, each container's subcommands right after it.
std::span<const AclCommand> acl_commands();
// The id of "get" or "config|get" (lower case); nullopt when unknown.
std::optional<std::size_t> acl_command_id(std::string_view lower_full_name);
// The id `args` runs as (a container's subcommand when it has one named args[1]); nullopt when unknown.
std::optional<std::size_t> acl_command_id_of(const Command& args);

}  // namespace lockcheck::mock
