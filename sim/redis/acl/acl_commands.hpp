#pragma once
// The commands ACL rules can name: every command and subcommand ("config|get") of Redis 7.0.15, including
// those the mock does not run (Redis accepts +xadd; the category arithmetic of ACL LIST counts them), and any
// the mock adds; each with an id (a bit in a user's command bitmap) and its 7.0.15 categories.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lockcheck/reply.hpp"

namespace lockcheck::mock {

struct AclCommand {
  std::string full_name;        // "get", "config|get"
  std::uint32_t categories;     // AclCategory bits
  std::optional<std::size_t> parent;  // a subcommand's container
  std::vector<std::size_t> children;  // a container's subcommands
};

// All of them, sorted by full name (a container right before its subcommands).
std::span<const AclCommand> acl_commands();
// The id of "get" or "config|get" (lower case); nullopt when unknown.
std::optional<std::size_t> acl_command_id(std::string_view lower_full_name);
// The id `args` runs as (a container's subcommand when it has one named args[1]); nullopt when unknown.
std::optional<std::size_t> acl_command_id_of(const Command& args);

}  // namespace lockcheck::mock
