// Redis 7 functions in the simulator: FUNCTION LOAD on a master reaches its replica through the replication
// stream (as in Redis, where libraries are part of the RDB and the stream), so FCALL works after a failover.
#include <gtest/gtest.h>

#include <memory>

#include "core/simulate.hpp"
#include "core/world.hpp"
#include "direct_call.hpp"
#include "redis/server/node.hpp"

namespace lockcheck::sim {
namespace {

RunConfig master_and_replica() {
  RunConfig config = one_client_config(2);
  config.nodes[1].replica_of = 0;
  config.nodes[1].replication_lag_min_us = 1000;
  config.nodes[1].replication_lag_max_us = 1000;
  return config;
}

std::string call(World& world, Command command) { return call_master(world, std::move(command), 5000); }

// Straight on the replica's node (clients are routed to masters).
std::string on_replica(World& world, Command command) {
  mock::Session session{.client_id = 99};
  return to_string(world.node(1).mock().execute(command, session));
}

TEST(SimFunctions, LoadedLibraryReachesTheReplica) {
  World world(master_and_replica(), 1);
  const std::string library = "#!lua name=locks\nredis.register_function('hello', function() return 'hi' end)";
  EXPECT_EQ(call(world, {"FUNCTION", "LOAD", library}), to_string(Reply::bulk("locks")));
  EXPECT_EQ(on_replica(world, {"FCALL_RO", "hello", "0"}), to_string(Reply::error("ERR Can not execute a script with write flag using *_ro command.")));
  EXPECT_EQ(on_replica(world, {"FCALL", "hello", "0"}), to_string(Reply::bulk("hi")));
  EXPECT_EQ(call(world, {"FUNCTION", "DELETE", "locks"}), to_string(Reply::ok()));
  EXPECT_EQ(on_replica(world, {"FCALL", "hello", "0"}), to_string(Reply::error("ERR Function not found")));
}

}  // namespace
}  // namespace lockcheck::sim
