// The blocking family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, handler and a container's subcommands, as Redis 7.0's command table has them.
#include "redis/commands/blocking/blocking_family.hpp"

#include "redis/command_table/command_table.hpp"

namespace lockcheck::mock {

void register_blocking_commands(CommandTable& table) {
  table.add({
      {"blmove", 6, kWO | kNoScript, cmd::blmove},
      {"blpop", -3, kW | kNoScript, cmd::blpop},
      {"brpop", -3, kW | kNoScript, cmd::brpop},
      {"brpoplpush", 4, kWO | kNoScript, cmd::brpoplpush},
      {"bzpopmax", -3, kW | kNoScript, cmd::bzpopmax},
      {"bzpopmin", -3, kW | kNoScript, cmd::bzpopmin},
  });
}

}  // namespace lockcheck::mock
