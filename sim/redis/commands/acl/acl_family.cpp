// The acl family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, keys (key_spec.hpp) and their ACL access, handler, a container's subcommands and a group
// other than the family's (command_group.hpp), as Redis 7.0's command table has them.
#include "redis/commands/acl/acl_family.hpp"

#include "redis/command_table/command_table.hpp"

namespace lockcheck::mock {
namespace {

// Redis 7.0.15's subcommands of ACL (one the mock does not run still passes the check,
// then its handler answers as Redis does for an unsupported case).
constexpr SubcommandSpec kAclSubcommandSpecs[] = {
    {"cat", -2}, {"deluser", -3}, {"dryrun", -4}, {"genpass", -2}, {"getuser", 3}, {"help", 2}, {"list", 2},
    {"load", 2}, {"log", -2}, {"save", 2}, {"setuser", -3}, {"users", 2}, {"whoami", 2},
};

}  // namespace

void register_acl_commands(CommandTable& table) {
  table.add(CommandGroup::kServer, {
      {"acl", -2, kNoScript, kNoKeys, "", cmd::acl, kAclSubcommandSpecs},
  });
}

}  // namespace lockcheck::mock
