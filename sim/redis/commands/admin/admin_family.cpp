// The admin family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, handler and a container's subcommands, as Redis 7.0's command table has them.
#include "redis/commands/admin/admin_family.hpp"

#include "redis/command_table/command_table.hpp"

namespace lockcheck::mock {
namespace {

// Redis 7.0.15's subcommands of COMMAND and CONFIG (one the mock does not run still passes the check,
// then its handler answers as Redis does for an unsupported case).
constexpr SubcommandSpec kCommandSubcommandSpecs[] = {
    {"count", 2}, {"docs", -2}, {"getkeys", -4}, {"getkeysandflags", -4}, {"help", 2}, {"info", -2}, {"list", -2},
};
constexpr SubcommandSpec kConfigSubcommandSpecs[] = {
    {"get", -3}, {"help", 2}, {"resetstat", 2}, {"rewrite", 2}, {"set", -4},
};

}  // namespace

void register_admin_commands(CommandTable& table) {
  table.add({
      {"command", -1, kNoScript, cmd::command, kCommandSubcommandSpecs},
      {"config", -2, kNoScript, cmd::config, kConfigSubcommandSpecs},
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
