// The connection family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, keys (key_spec.hpp) and their ACL access, handler, a container's subcommands and a group
// other than the family's (command_group.hpp), as Redis 7.0's command table has them.
#include "redis/commands/connection/connection_family.hpp"

#include "redis/command_table/command_table.hpp"

namespace lockcheck::mock {
namespace {

// Redis 7.0.15's subcommands of CLIENT (one the mock does not run still passes the check,
// then its handler answers as Redis does for an unsupported case).
constexpr SubcommandSpec kClientSubcommandSpecs[] = {
    {"caching", 3}, {"getname", 2}, {"getredir", 2}, {"help", 2}, {"id", 2}, {"info", 2}, {"kill", -3},
    {"list", -2}, {"no-evict", 3}, {"pause", -3}, {"reply", 3}, {"setinfo", 4}, {"setname", 3}, {"tracking", -3},
    {"trackinginfo", 2}, {"unblock", -3}, {"unpause", 2},
};

}  // namespace

void register_connection_commands(CommandTable& table) {
  table.add(CommandGroup::kConnection, {
      {"auth", -2, kNoScript | kNoAuth | kAllowBusy, kNoKeys, "", cmd::auth},
      {"client", -2, kNoScript, kNoKeys, "", cmd::client, kClientSubcommandSpecs},
      {"hello", -1, kNoScript | kNoAuth | kAllowBusy, kNoKeys, "", cmd::hello},
  });
}

}  // namespace lockcheck::mock
