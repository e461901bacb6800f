#pragma once
// The hash family: HSET, HGET, HINCRBY, HDEL ...; HRANDFIELD with ZRANDMEMBER (one file: the same count rules).
// Its handlers, and register_hash_commands, which adds their rows to a command table (hash_family.cpp).
#include "redis/command_table/command.hpp"

namespace lockcheck::mock {

class CommandTable;

void register_hash_commands(CommandTable& table);

}  // namespace lockcheck::mock

namespace lockcheck::mock::cmd {

// commands_random_fields.cpp
Reply hrandfield(CommandContext&);
Reply zrandmember(CommandContext&);
// commands_hash.cpp
Reply hset(CommandContext&);
Reply hget(CommandContext&);
Reply hmget(CommandContext&);
Reply hdel(CommandContext&);
Reply hexists(CommandContext&);
Reply hincrby(CommandContext&);
Reply hlen(CommandContext&);
Reply hgetall(CommandContext&);
Reply hsetnx(CommandContext&);
Reply hmset(CommandContext&);
Reply hkeys(CommandContext&);
Reply hvals(CommandContext&);
Reply hstrlen(CommandContext&);

}  // namespace lockcheck::mock::cmd
