// The list family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, handler and a container's subcommands, as Redis 7.0's command table has them.
#include "redis/types/list/list_family.hpp"

#include "redis/command_table/command_table.hpp"

namespace lockcheck::mock {

void register_list_commands(CommandTable& table) {
  table.add({
      {"blmpop", -5, kW, cmd::blmpop},
      {"bzmpop", -5, kW, cmd::bzmpop},
      {"lindex", 3, 0, cmd::lindex},
      {"linsert", 5, kWO, cmd::linsert},
      {"llen", 2, 0, cmd::llen},
      {"lmove", 5, kWO, cmd::lmove},
      {"lmpop", -4, kW, cmd::lmpop},
      {"lpop", -2, kW, cmd::lpop},
      {"lpos", -3, 0, cmd::lpos},
      {"lpush", -3, kWO, cmd::lpush},
      {"lpushx", -3, kWO, cmd::lpushx},
      {"lrange", 4, 0, cmd::lrange},
      {"lrem", 4, kW, cmd::lrem},
      {"lset", 4, kWO, cmd::lset},
      {"ltrim", 4, kW, cmd::ltrim},
      {"rpop", -2, kW, cmd::rpop},
      {"rpoplpush", 3, kWO, cmd::rpoplpush},
      {"rpush", -3, kWO, cmd::rpush},
      {"rpushx", -3, kWO, cmd::rpushx},
      {"zmpop", -4, kW, cmd::zmpop},
  });
}

}  // namespace lockcheck::mock
