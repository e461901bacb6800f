// The admin family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, keys (key_spec.hpp) and their ACL access, handler, a container's subcommands and a group
// other than the family's (command_group.hpp), as Redis 7.0's command table has them.
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
  table.add(CommandGroup::kServer, {
      {"command", -1, kNoScript, kNoKeys, "", cmd::command, kCommandSubcommandSpecs},
      {"config", -2, kNoScript, kNoKeys, "", cmd::config, kConfigSubcommandSpecs},
      {"echo", 2, 0, kNoKeys, "", cmd::echo, CommandGroup::kConnection},
      {"info", -1, 0, kNoKeys, "", cmd::info},
      {"monitor", 1, kNoScript, kNoKeys, "", cmd::monitor},
      {"ping", -1, kPubSub, kNoKeys, "", cmd::ping, CommandGroup::kConnection},
      {"quit", -1, kNoScript | kPubSub | kNoQueue | kAllowBusy, kNoKeys, "", cmd::quit, CommandGroup::kConnection},
      {"role", 1, kNoScript, kNoKeys, "", cmd::role},
      {"shutdown", -1, kNoScript | kNoQueue, kNoKeys, "", cmd::shutdown},
      {"time", 1, 0, kNoKeys, "", cmd::time},
      {"wait", 3, kNoScript, kNoKeys, "", cmd::wait, CommandGroup::kGeneric},
  });
}

}  // namespace lockcheck::mock
