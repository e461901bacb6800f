#pragma once
// The admin family: the server's own commands, PING, ECHO, TIME, WAIT, QUIT, SHUTDOWN, MONITOR, INFO, ROLE, CONFIG, COMMAND.
// Its handlers, and register_admin_commands, which adds their rows to a command table (admin_family.cpp).
#include "redis/command_table/command.hpp"

namespace lockcheck::mock {

class CommandTable;

void register_admin_commands(CommandTable& table);

}  // namespace lockcheck::mock

namespace lockcheck::mock::cmd {

// commands_server.cpp
Reply ping(CommandContext&);
Reply echo(CommandContext&);
Reply time(CommandContext&);
Reply wait(CommandContext&);
Reply quit(CommandContext&);
Reply shutdown(CommandContext&);
Reply monitor(CommandContext&);
// commands_info.cpp
Reply info(CommandContext&);
Reply role(CommandContext&);
// commands_command.cpp
Reply command(CommandContext&);
// commands_config.cpp
Reply config(CommandContext&);

}  // namespace lockcheck::mock::cmd
