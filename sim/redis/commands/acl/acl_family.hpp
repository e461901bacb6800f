#pragma once
// The acl family: the ACL command.
// Its handlers, and register_acl_commands, which adds their rows to a command table (acl_family.cpp).
#include "redis/command_table/command.hpp"

namespace lockcheck::mock {

class CommandTable;

void register_acl_commands(CommandTable& table);

}  // namespace lockcheck::mock

namespace lockcheck::mock::cmd {

// commands_acl.cpp
Reply acl(CommandContext&);

}  // namespace lockcheck::mock::cmd
