#pragma once
// The pubsub family: PUBLISH, SUBSCRIBE ..., SPUBLISH, PUBSUB.
// Its handlers, and register_pubsub_commands, which adds their rows to a command table (pubsub_family.cpp).
#include "redis/command_table/command.hpp"

namespace lockcheck::mock {

class CommandTable;

void register_pubsub_commands(CommandTable& table);

}  // namespace lockcheck::mock

namespace lockcheck::mock::cmd {

// commands_pubsub.cpp
Reply publish(CommandContext&);
Reply subscribe(CommandContext&);
Reply unsubscribe(CommandContext&);
Reply psubscribe(CommandContext&);
Reply punsubscribe(CommandContext&);
Reply ssubscribe(CommandContext&);
Reply sunsubscribe(CommandContext&);
Reply spublish(CommandContext&);
Reply pubsub(CommandContext&);

}  // namespace lockcheck::mock::cmd
