#pragma once
// The transactions family: MULTI, EXEC, DISCARD, WATCH, UNWATCH.
// Its handlers, and register_transactions_commands, which adds their rows to a command table (transactions_family.cpp).
#include "redis/command_table/command.hpp"

namespace lockcheck::mock {

class CommandTable;

void register_transactions_commands(CommandTable& table);

}  // namespace lockcheck::mock

namespace lockcheck::mock::cmd {

// commands_transaction.cpp
Reply multi(CommandContext&);
Reply exec(CommandContext&);
Reply discard(CommandContext&);
Reply watch(CommandContext&);
Reply unwatch(CommandContext&);

}  // namespace lockcheck::mock::cmd
