// The zset family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, keys (key_spec.hpp), handler, a container's subcommands and a group other than the
// family's (command_group.hpp), as Redis 7.0's command table has them.
#include "redis/types/zset/zset_family.hpp"

#include "redis/command_table/command_table.hpp"

namespace lockcheck::mock {

void register_zset_commands(CommandTable& table) {
  table.add(CommandGroup::kSortedSet, {
      {"zadd", -4, kWO, kFirstKey, cmd::zadd},
      {"zcard", 2, 0, kFirstKey, cmd::zcard},
      {"zcount", 4, 0, kFirstKey, cmd::zcount},
      {"zdiff", -3, 0, counted_keys(1), cmd::zdiff},
      {"zdiffstore", -4, kWO, counted_keys(2, kFirstKey), cmd::zdiffstore},
      {"zincrby", 4, kWO, kFirstKey, cmd::zincrby},
      {"zinter", -3, 0, counted_keys(1), cmd::zinter},
      {"zintercard", -3, 0, counted_keys(1), cmd::zintercard},
      {"zinterstore", -4, kWO, counted_keys(2, kFirstKey), cmd::zinterstore},
      {"zlexcount", 4, 0, kFirstKey, cmd::zlexcount},
      {"zmscore", -3, 0, kFirstKey, cmd::zmscore},
      {"zpopmax", -2, kW, kFirstKey, cmd::zpopmax},
      {"zpopmin", -2, kW, kFirstKey, cmd::zpopmin},
      {"zrange", -4, 0, kFirstKey, cmd::zrange},
      {"zrangebylex", -4, 0, kFirstKey, cmd::zrangebylex},
      {"zrangebyscore", -4, 0, kFirstKey, cmd::zrangebyscore},
      {"zrangestore", -5, kWO, kFirstTwoKeys, cmd::zrangestore},
      {"zrank", 3, 0, kFirstKey, cmd::zrank},
      {"zrem", -3, kW, kFirstKey, cmd::zrem},
      {"zremrangebylex", 4, kW, kFirstKey, cmd::zremrangebylex},
      {"zremrangebyrank", 4, kW, kFirstKey, cmd::zremrangebyrank},
      {"zremrangebyscore", 4, kW, kFirstKey, cmd::zremrangebyscore},
      {"zrevrange", -4, 0, kFirstKey, cmd::zrevrange},
      {"zrevrangebylex", -4, 0, kFirstKey, cmd::zrevrangebylex},
      {"zrevrangebyscore", -4, 0, kFirstKey, cmd::zrevrangebyscore},
      {"zrevrank", 3, 0, kFirstKey, cmd::zrevrank},
      {"zscore", 3, 0, kFirstKey, cmd::zscore},
      {"zunion", -3, 0, counted_keys(1), cmd::zunion},
      {"zunionstore", -4, kWO, counted_keys(2, kFirstKey), cmd::zunionstore},
  });
}

}  // namespace lockcheck::mock
