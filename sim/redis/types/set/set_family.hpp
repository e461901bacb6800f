#pragma once
// The set family: SADD ..., SINTER/SUNION/SDIFF, SPOP/SRANDMEMBER, SSCAN.
// Its handlers, and register_set_commands, which adds their rows to a command table (set_family.cpp).
#include "redis/command_table/command.hpp"

namespace lockcheck::mock {

class CommandTable;

void register_set_commands(CommandTable& table);

}  // namespace lockcheck::mock

namespace lockcheck::mock::cmd {

// commands_set.cpp
Reply sadd(CommandContext&);
Reply srem(CommandContext&);
Reply sismember(CommandContext&);
Reply smismember(CommandContext&);
Reply smembers(CommandContext&);
Reply scard(CommandContext&);
Reply smove(CommandContext&);
// commands_set_random.cpp
Reply spop(CommandContext&);
Reply srandmember(CommandContext&);
// commands_set_algebra.cpp
Reply sinter(CommandContext&);
Reply sunion(CommandContext&);
Reply sdiff(CommandContext&);
Reply sinterstore(CommandContext&);
Reply sunionstore(CommandContext&);
Reply sdiffstore(CommandContext&);
Reply sintercard(CommandContext&);
// commands_set_scan.cpp
Reply sscan(CommandContext&);

}  // namespace lockcheck::mock::cmd
