// The hash family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, handler and a container's subcommands, as Redis 7.0's command table has them.
#include "redis/types/hash/hash_family.hpp"

#include "redis/command_table/command_table.hpp"

namespace lockcheck::mock {

void register_hash_commands(CommandTable& table) {
  table.add({
      {"hdel", -3, kW, cmd::hdel},
      {"hexists", 3, 0, cmd::hexists},
      {"hget", 3, 0, cmd::hget},
      {"hgetall", 2, 0, cmd::hgetall},
      {"hincrby", 4, kWO, cmd::hincrby},
      {"hkeys", 2, 0, cmd::hkeys},
      {"hlen", 2, 0, cmd::hlen},
      {"hmget", -3, 0, cmd::hmget},
      {"hmset", -4, kWO, cmd::hmset},
      {"hrandfield", -2, 0, cmd::hrandfield},
      {"hset", -4, kWO, cmd::hset},
      {"hsetnx", 4, kWO, cmd::hsetnx},
      {"hstrlen", 3, 0, cmd::hstrlen},
      {"hvals", 2, 0, cmd::hvals},
      {"zrandmember", -2, 0, cmd::zrandmember},
  });
}

}  // namespace lockcheck::mock
