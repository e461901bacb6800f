#pragma once
// The cluster family: CLUSTER, ASKING, READONLY, READWRITE.
// Its handlers, and register_cluster_commands, which adds their rows to a command table (cluster_family.cpp).
#include "redis/command_table/command.hpp"

namespace lockcheck::mock {

class CommandTable;

void register_cluster_commands(CommandTable& table);

}  // namespace lockcheck::mock

namespace lockcheck::mock::cmd {

// commands_cluster.cpp
Reply cluster(CommandContext&);
Reply asking(CommandContext&);
Reply readonly(CommandContext&);
Reply readwrite(CommandContext&);

}  // namespace lockcheck::mock::cmd
