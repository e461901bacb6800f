#pragma once
// The string family: SET, GET, INCR ..., GETRANGE/SETRANGE/LCS, bitmaps, INCRBYFLOAT and HINCRBYFLOAT.
// Its handlers, and register_string_commands, which adds their rows to a command table (string_family.cpp).
#include "redis/command_table/command.hpp"

namespace lockcheck::mock {

class CommandTable;

void register_string_commands(CommandTable& table);

}  // namespace lockcheck::mock

namespace lockcheck::mock::cmd {

// commands_float.cpp
Reply incrbyfloat(CommandContext&);
Reply hincrbyfloat(CommandContext&);
// commands_string.cpp
Reply set(CommandContext&);
Reply get(CommandContext&);
Reply getdel(CommandContext&);
Reply setnx(CommandContext&);
Reply incr(CommandContext&);
Reply decr(CommandContext&);
Reply incrby(CommandContext&);
Reply decrby(CommandContext&);
Reply setex(CommandContext&);
Reply psetex(CommandContext&);
Reply getex(CommandContext&);
Reply getset(CommandContext&);
Reply append(CommandContext&);
Reply strlen(CommandContext&);
// commands_string_range.cpp
Reply getrange(CommandContext&);
Reply setrange(CommandContext&);
Reply lcs(CommandContext&);
// commands_bits.cpp
Reply getbit(CommandContext&);
Reply setbit(CommandContext&);
Reply bitcount(CommandContext&);
Reply bitpos(CommandContext&);
Reply bitop(CommandContext&);

}  // namespace lockcheck::mock::cmd
