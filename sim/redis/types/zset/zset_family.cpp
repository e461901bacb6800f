// The zset family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, keys (key_spec.hpp) and their ACL access, handler, a container's subcommands and a group
// other than the family's (command_group.hpp), as Redis 7.0's command table has them.
#include "redis/types/zset/zset_family.hpp"

#include "redis/command_table/command_table.hpp"

namespace lockcheck::mock {

void register_zset_commands(CommandTable& table) {
  table.add(CommandGroup::kSortedSet, {
      {"zadd", -4, kWO, kFirstKey, "W", cmd::zadd},
      {"zcard", 2, 0, kFirstKey, "-", cmd::zcard},
      {"zcount", 4, 0, kFirstKey, "R", cmd::zcount},
      {"zdiff", -3, 0, counted_keys(1), "R", cmd::zdiff},
      {"zdiffstore", -4, kWO, counted_keys(2, kFirstKey), "W R", cmd::zdiffstore},
      {"zincrby", 4, kWO, kFirstKey, "RW", cmd::zincrby},
      {"zinter", -3, 0, counted_keys(1), "R", cmd::zinter},
      {"zintercard", -3, 0, counted_keys(1), "R", cmd::zintercard},
      {"zinterstore", -4, kWO, counted_keys(2, kFirstKey), "W R", cmd::zinterstore},
      {"zlexcount", 4, 0, kFirstKey, "R", cmd::zlexcount},
      {"zmscore", -3, 0, kFirstKey, "R", cmd::zmscore},
      {"zpopmax", -2, kW, kFirstKey, "RW", cmd::zpopmax},
      {"zpopmin", -2, kW, kFirstKey, "RW", cmd::zpopmin},
      {"zrange", -4, 0, kFirstKey, "R", cmd::zrange},
      {"zrangebylex", -4, 0, kFirstKey, "R", cmd::zrangebylex},
      {"zrangebyscore", -4, 0, kFirstKey, "R", cmd::zrangebyscore},
      {"zrangestore", -5, kWO, kFirstTwoKeys, "W R", cmd::zrangestore},
      {"zrank", 3, 0, kFirstKey, "R", cmd::zrank},
      {"zrem", -3, kW, kFirstKey, "W", cmd::zrem},
      {"zremrangebylex", 4, kW, kFirstKey, "W", cmd::zremrangebylex},
      {"zremrangebyrank", 4, kW, kFirstKey, "W", cmd::zremrangebyrank},
      {"zremrangebyscore", 4, kW, kFirstKey, "W", cmd::zremrangebyscore},
      {"zrevrange", -4, 0, kFirstKey, "R", cmd::zrevrange},
      {"zrevrangebylex", -4, 0, kFirstKey, "R", cmd::zrevrangebylex},
      {"zrevrangebyscore", -4, 0, kFirstKey, "R", cmd::zrevrangebyscore},
      {"zrevrank", 3, 0, kFirstKey, "R", cmd::zrevrank},
      {"zscore", 3, 0, kFirstKey, "R", cmd::zscore},
      {"zunion", -3, 0, counted_keys(1), "R", cmd::zunion},
      {"zunionstore", -4, kWO, counted_keys(2, kFirstKey), "W R", cmd::zunionstore},
  });
}

}  // namespace lockcheck::mock
