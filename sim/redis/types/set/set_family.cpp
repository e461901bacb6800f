// The set family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, keys (key_spec.hpp), handler, a container's subcommands and a group other than the
// family's (command_group.hpp), as Redis 7.0's command table has them.
#include "redis/types/set/set_family.hpp"

#include "redis/command_table/command_table.hpp"

namespace lockcheck::mock {

void register_set_commands(CommandTable& table) {
  table.add(CommandGroup::kSet, {
      {"sadd", -3, kWO, kFirstKey, cmd::sadd},
      {"scard", 2, 0, kFirstKey, cmd::scard},
      {"sdiff", -2, 0, kEveryKey, cmd::sdiff},
      {"sdiffstore", -3, kWO, kEveryKey, cmd::sdiffstore},
      {"sinter", -2, 0, kEveryKey, cmd::sinter},
      {"sintercard", -3, 0, {.count_at = 1, .getkeys = CountedGetkeys::kStrict}, cmd::sintercard},
      {"sinterstore", -3, kWO, kEveryKey, cmd::sinterstore},
      {"sismember", 3, 0, kFirstKey, cmd::sismember},
      {"smembers", 2, 0, kFirstKey, cmd::smembers},
      {"smismember", -3, 0, kFirstKey, cmd::smismember},
      {"smove", 4, kW, kFirstTwoKeys, cmd::smove},
      {"spop", -2, kW, kFirstKey, cmd::spop},
      {"srandmember", -2, 0, kFirstKey, cmd::srandmember},
      {"srem", -3, kW, kFirstKey, cmd::srem},
      {"sscan", -3, 0, kFirstKey, cmd::sscan},
      {"sunion", -2, 0, kEveryKey, cmd::sunion},
      {"sunionstore", -3, kWO, kEveryKey, cmd::sunionstore},
  });
}

}  // namespace lockcheck::mock
