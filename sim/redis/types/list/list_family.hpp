#pragma once
// The list family: LPUSH ... LMOVE; LMPOP/BLMPOP with ZMPOP/BZMPOP (one file: the same parsing).
// Its handlers, and register_list_commands, which adds their rows to a command table (list_family.cpp).
#include "redis/command_table/command.hpp"

namespace lockcheck::mock {

class CommandTable;

void register_list_commands(CommandTable& table);

}  // namespace lockcheck::mock

namespace lockcheck::mock::cmd {

// commands_list.cpp
Reply lpush(CommandContext&);
Reply rpush(CommandContext&);
Reply lpop(CommandContext&);
Reply rpop(CommandContext&);
Reply lrange(CommandContext&);
Reply lrem(CommandContext&);
Reply llen(CommandContext&);
Reply lpushx(CommandContext&);
Reply rpushx(CommandContext&);
// commands_list_edit.cpp
Reply lindex(CommandContext&);
Reply lset(CommandContext&);
Reply ltrim(CommandContext&);
Reply linsert(CommandContext&);
Reply lpos(CommandContext&);
Reply lmove(CommandContext&);
Reply rpoplpush(CommandContext&);
// commands_mpop.cpp
Reply lmpop(CommandContext&);
Reply blmpop(CommandContext&);
Reply zmpop(CommandContext&);
Reply bzmpop(CommandContext&);

}  // namespace lockcheck::mock::cmd
