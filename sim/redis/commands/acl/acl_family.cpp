// The acl family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags and handler, as Redis 7.0's command table has them.
#include "redis/commands/acl/acl_family.hpp"

#include "redis/server/command_table.hpp"

namespace lockcheck::mock {

void register_acl_commands(CommandTable& table) {
  table.add({
      {"acl", -2, kNoScript, cmd::acl},
  });
}

}  // namespace lockcheck::mock
