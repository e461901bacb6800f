#pragma once
// The keys family: the commands on keys, whatever they hold: DEL/EXISTS/EXPIRE family/TTL/TYPE, SELECT/SWAPDB/MOVE/COPY/FLUSH*, MGET/MSET/RENAME/TOUCH, KEYS/SCAN/HSCAN/RANDOMKEY, SORT, OBJECT, MEMORY.
// Its handlers, and register_keys_commands, which adds their rows to a command table (keys_family.cpp).
#include "redis/command_table/command.hpp"

namespace lockcheck::mock {

class CommandTable;

void register_keys_commands(CommandTable& table);

}  // namespace lockcheck::mock

namespace lockcheck::mock::cmd {

// commands_keys.cpp
Reply del(CommandContext&);
Reply exists(CommandContext&);
Reply expire(CommandContext&);
Reply pexpire(CommandContext&);
Reply expireat(CommandContext&);
Reply pexpireat(CommandContext&);
Reply ttl(CommandContext&);
Reply pttl(CommandContext&);
Reply persist(CommandContext&);
Reply type(CommandContext&);
Reply expiretime(CommandContext&);
Reply pexpiretime(CommandContext&);
// commands_object.cpp
Reply object(CommandContext&);
// commands_memory.cpp
Reply memory(CommandContext&);
// commands_multikey.cpp
Reply mget(CommandContext&);
Reply mset(CommandContext&);
Reply msetnx(CommandContext&);
Reply touch(CommandContext&);
Reply rename(CommandContext&);
Reply renamenx(CommandContext&);
// commands_scan.cpp
Reply keys(CommandContext&);
Reply scan(CommandContext&);
Reply hscan(CommandContext&);
Reply randomkey(CommandContext&);
// commands_sort.cpp
Reply sort(CommandContext&);
Reply sort_ro(CommandContext&);
// commands_db.cpp
Reply flushall(CommandContext&);
Reply flushdb(CommandContext&);
Reply dbsize(CommandContext&);
Reply swapdb(CommandContext&);
Reply move(CommandContext&);
Reply copy(CommandContext&);
Reply select(CommandContext&);

}  // namespace lockcheck::mock::cmd
