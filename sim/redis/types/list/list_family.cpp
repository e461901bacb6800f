// The list family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, keys (key_spec.hpp) and their ACL access, handler, a container's subcommands and a group
// other than the family's (command_group.hpp), as Redis 7.0's command table has them.
#include "redis/types/list/list_family.hpp"

#include "redis/command_table/command_table.hpp"

namespace lockcheck::mock {

void register_list_commands(CommandTable& table) {
  table.add(CommandGroup::kList, {
      {"blmpop", -5, kW, counted_keys(2), "RW", cmd::blmpop},
      {"bzmpop", -5, kW, counted_keys(2), "RW", cmd::bzmpop, CommandGroup::kSortedSet},
      {"lindex", 3, 0, kFirstKey, "R", cmd::lindex},
      {"linsert", 5, kWO, kFirstKey, "W", cmd::linsert},
      {"llen", 2, 0, kFirstKey, "-", cmd::llen},
      {"lmove", 5, kWO, kFirstTwoKeys, "RW W", cmd::lmove},
      {"lmpop", -4, kW, counted_keys(1), "RW", cmd::lmpop},
      {"lpop", -2, kW, kFirstKey, "RW", cmd::lpop},
      {"lpos", -3, 0, kFirstKey, "R", cmd::lpos},
      {"lpush", -3, kWO, kFirstKey, "W", cmd::lpush},
      {"lpushx", -3, kWO, kFirstKey, "W", cmd::lpushx},
      {"lrange", 4, 0, kFirstKey, "R", cmd::lrange},
      {"lrem", 4, kW, kFirstKey, "W", cmd::lrem},
      {"lset", 4, kWO, kFirstKey, "W", cmd::lset},
      {"ltrim", 4, kW, kFirstKey, "W", cmd::ltrim},
      {"rpop", -2, kW, kFirstKey, "RW", cmd::rpop},
      {"rpoplpush", 3, kWO, kFirstTwoKeys, "RW W", cmd::rpoplpush},
      {"rpush", -3, kWO, kFirstKey, "W", cmd::rpush},
      {"rpushx", -3, kWO, kFirstKey, "W", cmd::rpushx},
      {"zmpop", -4, kW, counted_keys(1), "RW", cmd::zmpop, CommandGroup::kSortedSet},
  });
}

}  // namespace lockcheck::mock
