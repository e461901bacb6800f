// The set family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, keys (key_spec.hpp) and their ACL access, handler, a container's subcommands and a group
// other than the family's (command_group.hpp), as Redis 7.0's command table has them.
#include "redis/types/set/set_family.hpp"

#include "redis/command_table/command_table.hpp"

namespace lockcheck::mock {

void register_set_commands(CommandTable& table) {
  table.add(CommandGroup::kSet, {
      {"sadd", -3, kWO, kFirstKey, "W", cmd::sadd},
      {"scard", 2, 0, kFirstKey, "-", cmd::scard},
      {"sdiff", -2, 0, kEveryKey, "R", cmd::sdiff},
      {"sdiffstore", -3, kWO, kEveryKey, "W R", cmd::sdiffstore},
      {"sinter", -2, 0, kEveryKey, "R", cmd::sinter},
      {"sintercard", -3, 0, {.count_at = 1}, "R", cmd::sintercard},
      {"sinterstore", -3, kWO, kEveryKey, "W R", cmd::sinterstore},
      {"sismember", 3, 0, kFirstKey, "-", cmd::sismember},
      {"smembers", 2, 0, kFirstKey, "R", cmd::smembers},
      {"smismember", -3, 0, kFirstKey, "R", cmd::smismember},
      {"smove", 4, kW, kFirstTwoKeys, "RW W", cmd::smove},
      {"spop", -2, kW, kFirstKey, "RW", cmd::spop},
      {"srandmember", -2, 0, kFirstKey, "R", cmd::srandmember},
      {"srem", -3, kW, kFirstKey, "W", cmd::srem},
      {"sscan", -3, 0, kFirstKey, "R", cmd::sscan},
      {"sunion", -2, 0, kEveryKey, "R", cmd::sunion},
      {"sunionstore", -3, kWO, kEveryKey, "W R", cmd::sunionstore},
  });
}

}  // namespace lockcheck::mock
