#pragma once
// The zset family: ZADD ..., ranges, ZUNION/ZINTER/ZDIFF, ZRANK/ZINCRBY/ZPOP*.
// Its handlers, and register_zset_commands, which adds their rows to a command table (zset_family.cpp).
#include "redis/command_table/command.hpp"

namespace lockcheck::mock {

class CommandTable;

void register_zset_commands(CommandTable& table);

}  // namespace lockcheck::mock

namespace lockcheck::mock::cmd {

// commands_zset.cpp
Reply zadd(CommandContext&);
Reply zrem(CommandContext&);
Reply zscore(CommandContext&);
Reply zcard(CommandContext&);
// commands_zset_range.cpp
Reply zrange(CommandContext&);
Reply zrevrange(CommandContext&);
Reply zrangebyscore(CommandContext&);
Reply zrevrangebyscore(CommandContext&);
Reply zrangebylex(CommandContext&);
Reply zrevrangebylex(CommandContext&);
Reply zcount(CommandContext&);
Reply zlexcount(CommandContext&);
Reply zremrangebyscore(CommandContext&);
Reply zremrangebyrank(CommandContext&);
Reply zremrangebylex(CommandContext&);
Reply zrangestore(CommandContext&);
// commands_zset_more.cpp
Reply zrank(CommandContext&);
Reply zrevrank(CommandContext&);
Reply zincrby(CommandContext&);
Reply zpopmin(CommandContext&);
Reply zpopmax(CommandContext&);
Reply zmscore(CommandContext&);
// commands_zset_algebra.cpp
Reply zunion(CommandContext&);
Reply zinter(CommandContext&);
Reply zdiff(CommandContext&);
Reply zunionstore(CommandContext&);
Reply zinterstore(CommandContext&);
Reply zdiffstore(CommandContext&);
Reply zintercard(CommandContext&);

}  // namespace lockcheck::mock::cmd
