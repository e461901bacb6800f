// The set family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, handler and a container's subcommands, as Redis 7.0's command table has them.
#include "redis/types/set/set_family.hpp"

#include "redis/command_table/command_table.hpp"

namespace lockcheck::mock {

void register_set_commands(CommandTable& table) {
  table.add({
      {"sadd", -3, kWO, cmd::sadd},
      {"scard", 2, 0, cmd::scard},
      {"sdiff", -2, 0, cmd::sdiff},
      {"sdiffstore", -3, kWO, cmd::sdiffstore},
      {"sinter", -2, 0, cmd::sinter},
      {"sintercard", -3, 0, cmd::sintercard},
      {"sinterstore", -3, kWO, cmd::sinterstore},
      {"sismember", 3, 0, cmd::sismember},
      {"smembers", 2, 0, cmd::smembers},
      {"smismember", -3, 0, cmd::smismember},
      {"smove", 4, kW, cmd::smove},
      {"spop", -2, kW, cmd::spop},
      {"srandmember", -2, 0, cmd::srandmember},
      {"srem", -3, kW, cmd::srem},
      {"sscan", -3, 0, cmd::sscan},
      {"sunion", -2, 0, cmd::sunion},
      {"sunionstore", -3, kWO, cmd::sunionstore},
  });
}

}  // namespace lockcheck::mock
