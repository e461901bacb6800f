// The zset family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, handler and a container's subcommands, as Redis 7.0's command table has them.
#include "redis/types/zset/zset_family.hpp"

#include "redis/command_table/command_table.hpp"

namespace lockcheck::mock {

void register_zset_commands(CommandTable& table) {
  table.add({
      {"zadd", -4, kWO, cmd::zadd},
      {"zcard", 2, 0, cmd::zcard},
      {"zcount", 4, 0, cmd::zcount},
      {"zdiff", -3, 0, cmd::zdiff},
      {"zdiffstore", -4, kWO, cmd::zdiffstore},
      {"zincrby", 4, kWO, cmd::zincrby},
      {"zinter", -3, 0, cmd::zinter},
      {"zintercard", -3, 0, cmd::zintercard},
      {"zinterstore", -4, kWO, cmd::zinterstore},
      {"zlexcount", 4, 0, cmd::zlexcount},
      {"zmscore", -3, 0, cmd::zmscore},
      {"zpopmax", -2, kW, cmd::zpopmax},
      {"zpopmin", -2, kW, cmd::zpopmin},
      {"zrange", -4, 0, cmd::zrange},
      {"zrangebylex", -4, 0, cmd::zrangebylex},
      {"zrangebyscore", -4, 0, cmd::zrangebyscore},
      {"zrangestore", -5, kWO, cmd::zrangestore},
      {"zrank", 3, 0, cmd::zrank},
      {"zrem", -3, kW, cmd::zrem},
      {"zremrangebylex", 4, kW, cmd::zremrangebylex},
      {"zremrangebyrank", 4, kW, cmd::zremrangebyrank},
      {"zremrangebyscore", 4, kW, cmd::zremrangebyscore},
      {"zrevrange", -4, 0, cmd::zrevrange},
      {"zrevrangebylex", -4, 0, cmd::zrevrangebylex},
      {"zrevrangebyscore", -4, 0, cmd::zrevrangebyscore},
      {"zrevrank", 3, 0, cmd::zrevrank},
      {"zscore", 3, 0, cmd::zscore},
      {"zunion", -3, 0, cmd::zunion},
      {"zunionstore", -4, kWO, cmd::zunionstore},
  });
}

}  // namespace lockcheck::mock
