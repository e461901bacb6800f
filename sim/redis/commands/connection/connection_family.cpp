// The connection family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags and handler, as Redis 7.0's command table has them.
#include "redis/commands/connection/connection_family.hpp"

#include "redis/server/command_table.hpp"

namespace lockcheck::mock {

void register_connection_commands(CommandTable& table) {
  table.add({
      {"auth", -2, kNoScript | kNoAuth | kAllowBusy, cmd::auth},
      {"client", -2, kNoScript, cmd::client},
      {"hello", -1, kNoScript | kNoAuth | kAllowBusy, cmd::hello},
  });
}

}  // namespace lockcheck::mock
