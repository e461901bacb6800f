#pragma once
// The dump family: DUMP and RESTORE of a key.
// Its handlers, and register_dump_commands, which adds their rows to a command table (dump_family.cpp).
#include "redis/command_table/command.hpp"

namespace lockcheck::mock {

class CommandTable;

void register_dump_commands(CommandTable& table);

}  // namespace lockcheck::mock

namespace lockcheck::mock::cmd {

// commands_dump.cpp
Reply dump(CommandContext&);
Reply restore(CommandContext&);

}  // namespace lockcheck::mock::cmd
