#pragma once
// The stream family: XADD ... XINFO.
// Its handlers, and register_stream_commands, which adds their rows to a command table (stream_family.cpp).
#include "redis/command_table/command.hpp"

namespace lockcheck::mock {

class CommandTable;

void register_stream_commands(CommandTable& table);

}  // namespace lockcheck::mock

namespace lockcheck::mock::cmd {

// commands_stream.cpp
Reply xadd(CommandContext&);
Reply xlen(CommandContext&);
Reply xrange(CommandContext&);
Reply xrevrange(CommandContext&);
Reply xdel(CommandContext&);
Reply xtrim(CommandContext&);
Reply xsetid(CommandContext&);
// commands_stream_read.cpp
Reply xread(CommandContext&);
Reply xreadgroup(CommandContext&);
// commands_stream_group.cpp
Reply xgroup(CommandContext&);
Reply xack(CommandContext&);
Reply xpending(CommandContext&);
// commands_stream_claim.cpp
Reply xclaim(CommandContext&);
Reply xautoclaim(CommandContext&);
// commands_stream_info.cpp
Reply xinfo(CommandContext&);

}  // namespace lockcheck::mock::cmd
