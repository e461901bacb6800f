// The dump family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, handler and a container's subcommands, as Redis 7.0's command table has them.
#include "redis/commands/dump/dump_family.hpp"

#include "redis/command_table/command_table.hpp"

namespace lockcheck::mock {

void register_dump_commands(CommandTable& table) {
  table.add({
      {"dump", 2, 0, cmd::dump},
      {"restore", -4, kWO, cmd::restore},
  });
}

}  // namespace lockcheck::mock
