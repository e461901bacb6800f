// The list family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, keys (key_spec.hpp), handler, a container's subcommands and a group other than the
// family's (command_group.hpp), as Redis 7.0's command table has them.
#include "redis/types/list/list_family.hpp"

#include "redis/command_table/command_table.hpp"

namespace lockcheck::mock {

void register_list_commands(CommandTable& table) {
  table.add(CommandGroup::kList, {
      {"blmpop", -5, kW, counted_keys(2), cmd::blmpop},
      {"bzmpop", -5, kW, counted_keys(2), cmd::bzmpop, CommandGroup::kSortedSet},
      {"lindex", 3, 0, kFirstKey, cmd::lindex},
      {"linsert", 5, kWO, kFirstKey, cmd::linsert},
      {"llen", 2, 0, kFirstKey, cmd::llen},
      {"lmove", 5, kWO, kFirstTwoKeys, cmd::lmove},
      {"lmpop", -4, kW, counted_keys(1), cmd::lmpop},
      {"lpop", -2, kW, kFirstKey, cmd::lpop},
      {"lpos", -3, 0, kFirstKey, cmd::lpos},
      {"lpush", -3, kWO, kFirstKey, cmd::lpush},
      {"lpushx", -3, kWO, kFirstKey, cmd::lpushx},
      {"lrange", 4, 0, kFirstKey, cmd::lrange},
      {"lrem", 4, kW, kFirstKey, cmd::lrem},
      {"lset", 4, kWO, kFirstKey, cmd::lset},
      {"ltrim", 4, kW, kFirstKey, cmd::ltrim},
      {"rpop", -2, kW, kFirstKey, cmd::rpop},
      {"rpoplpush", 3, kWO, kFirstTwoKeys, cmd::rpoplpush},
      {"rpush", -3, kWO, kFirstKey, cmd::rpush},
      {"rpushx", -3, kWO, kFirstKey, cmd::rpushx},
      {"zmpop", -4, kW, counted_keys(1), cmd::zmpop, CommandGroup::kSortedSet},
  });
}

}  // namespace lockcheck::mock
