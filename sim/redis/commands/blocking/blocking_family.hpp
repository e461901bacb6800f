#pragma once
// The blocking family: BLPOP, BRPOP, BLMOVE, BRPOPLPUSH, BZPOPMIN, BZPOPMAX.
// Its handlers, and register_blocking_commands, which adds their rows to a command table (blocking_family.cpp).
#include "redis/command_table/command.hpp"

namespace lockcheck::mock {

class CommandTable;

void register_blocking_commands(CommandTable& table);

}  // namespace lockcheck::mock

namespace lockcheck::mock::cmd {

// commands_blocking.cpp
Reply blpop(CommandContext&);
Reply brpop(CommandContext&);
Reply blmove(CommandContext&);
Reply brpoplpush(CommandContext&);
Reply bzpopmin(CommandContext&);
Reply bzpopmax(CommandContext&);

}  // namespace lockcheck::mock::cmd
