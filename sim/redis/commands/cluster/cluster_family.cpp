// The cluster family's rows of the command table: name (lower case), arity (Redis's convention: n exactly,
// -n at least n), flags, keys (key_spec.hpp) and their ACL access, handler, a container's subcommands and a group
// other than the family's (command_group.hpp), as Redis 7.0's command table has them.
#include "redis/commands/cluster/cluster_family.hpp"

#include "redis/command_table/command_table.hpp"

namespace lockcheck::mock {

void register_cluster_commands(CommandTable& table) {
  table.add(CommandGroup::kCluster, {
      {"asking", 1, 0, kNoKeys, "", cmd::asking},
      {"cluster", -2, 0, kNoKeys, "", cmd::cluster},
      {"readonly", 1, 0, kNoKeys, "", cmd::readonly},
      {"readwrite", 1, 0, kNoKeys, "", cmd::readwrite},
  });
}

}  // namespace lockcheck::mock
