#pragma once
// The connection family: HELLO, AUTH, CLIENT.
// Its handlers, and register_connection_commands, which adds their rows to a command table (connection_family.cpp).
#include "redis/command_table/command.hpp"

namespace lockcheck::mock {

class CommandTable;

void register_connection_commands(CommandTable& table);

}  // namespace lockcheck::mock

namespace lockcheck::mock::cmd {

// commands_connection.cpp
Reply client(CommandContext&);
Reply auth(CommandContext&);
Reply hello(CommandContext&);

}  // namespace lockcheck::mock::cmd
