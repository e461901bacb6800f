// The cluster family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, handler and a container's subcommands, as Redis 7.0's command table has them.
#include "redis/commands/cluster/cluster_family.hpp"

#include "redis/command_table/command_table.hpp"

namespace lockcheck::mock {

void register_cluster_commands(CommandTable& table) {
  table.add({
      {"asking", 1, 0, cmd::asking},
      {"cluster", -2, 0, cmd::cluster},
      {"readonly", 1, 0, cmd::readonly},
      {"readwrite", 1, 0, cmd::readwrite},
  });
}

}  // namespace lockcheck::mock
