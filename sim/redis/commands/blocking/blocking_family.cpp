// The blocking family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, keys (key_spec.hpp) and their ACL access, handler, a container's subcommands and a group
// other than the family's (command_group.hpp), as Redis 7.0's command table has them.
#include "redis/commands/blocking/blocking_family.hpp"

#include "redis/command_table/command_table.hpp"

namespace lockcheck::mock {

void register_blocking_commands(CommandTable& table) {
  table.add(CommandGroup::kList, {
      {"blmove", 6, kWO | kNoScript, kFirstTwoKeys, "RW W", cmd::blmove},
      {"blpop", -3, kW | kNoScript, kKeysThenTimeout, "RW", cmd::blpop},
      {"brpop", -3, kW | kNoScript, kKeysThenTimeout, "RW", cmd::brpop},
      {"brpoplpush", 4, kWO | kNoScript, kFirstTwoKeys, "RW W", cmd::brpoplpush},
      {"bzpopmax", -3, kW | kNoScript, kKeysThenTimeout, "RW", cmd::bzpopmax, CommandGroup::kSortedSet},
      {"bzpopmin", -3, kW | kNoScript, kKeysThenTimeout, "RW", cmd::bzpopmin, CommandGroup::kSortedSet},
  });
}

}  // namespace lockcheck::mock
