// The hash family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, keys (key_spec.hpp) and their ACL access, handler, a container's subcommands and a group
// other than the family's (command_group.hpp), as Redis 7.0's command table has them.
#include "redis/types/hash/hash_family.hpp"

#include "redis/command_table/command_table.hpp"

namespace lockcheck::mock {

void register_hash_commands(CommandTable& table) {
  table.add(CommandGroup::kHash, {
      {"hdel", -3, kW, kFirstKey, "W", cmd::hdel},
      {"hexists", 3, 0, kFirstKey, "-", cmd::hexists},
      {"hget", 3, 0, kFirstKey, "R", cmd::hget},
      {"hgetall", 2, 0, kFirstKey, "R", cmd::hgetall},
      {"hincrby", 4, kWO, kFirstKey, "RW", cmd::hincrby},
      {"hkeys", 2, 0, kFirstKey, "R", cmd::hkeys},
      {"hlen", 2, 0, kFirstKey, "-", cmd::hlen},
      {"hmget", -3, 0, kFirstKey, "R", cmd::hmget},
      {"hmset", -4, kWO, kFirstKey, "W", cmd::hmset},
      {"hrandfield", -2, 0, kFirstKey, "R", cmd::hrandfield},
      {"hset", -4, kWO, kFirstKey, "W", cmd::hset},
      {"hsetnx", 4, kWO, kFirstKey, "W", cmd::hsetnx},
      {"hstrlen", 3, 0, kFirstKey, "-", cmd::hstrlen},
      {"hvals", 2, 0, kFirstKey, "R", cmd::hvals},
      {"zrandmember", -2, 0, kFirstKey, "R", cmd::zrandmember, CommandGroup::kSortedSet},
  });
}

}  // namespace lockcheck::mock
