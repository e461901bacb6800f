// The dump family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, keys (key_spec.hpp) and their ACL access, handler, a container's subcommands and a group
// other than the family's (command_group.hpp), as Redis 7.0's command table has them.
#include "redis/commands/dump/dump_family.hpp"

#include "redis/command_table/command_table.hpp"

namespace lockcheck::mock {

void register_dump_commands(CommandTable& table) {
  table.add(CommandGroup::kGeneric, {
      {"dump", 2, 0, kFirstKey, "R", cmd::dump},
      {"restore", -4, kWO, kFirstKey, "W", cmd::restore},
  });
}

}  // namespace lockcheck::mock
