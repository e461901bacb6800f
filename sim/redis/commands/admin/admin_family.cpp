// The admin family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags and handler, as Redis 7.0's command table has them.
#include "redis/commands/admin/admin_family.hpp"

#include "redis/server/command_table.hpp"

namespace lockcheck::mock {

void register_admin_commands(CommandTable& table) {
  table.add({
      {"command", -1, kNoScript, cmd::command},
      {"config", -2, kNoScript, cmd::config},
      {"echo", 2, 0, cmd::echo},
      {"info", -1, 0, cmd::info},
      {"monitor", 1, kNoScript, cmd::monitor},
      {"ping", -1, kPubSub, cmd::ping},
      {"quit", -1, kNoScript | kPubSub | kNoQueue | kAllowBusy, cmd::quit},
      {"role", 1, kNoScript, cmd::role},
      {"shutdown", -1, kNoScript | kNoQueue, cmd::shutdown},
      {"time", 1, 0, cmd::time},
      {"wait", 3, kNoScript, cmd::wait},
  });
}

}  // namespace lockcheck::mock
