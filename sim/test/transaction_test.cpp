// MULTI/EXEC through the simulated network: queued on the node, run together at EXEC on the node's clock; a
// client's crash closes its connections, so a transaction it left open dies with it (as on Redis).
#include <gtest/gtest.h>

#include <memory>

#include "core/simulate.hpp"
#include "core/world.hpp"
#include "direct_call.hpp"
#include "redis/server/node.hpp"

namespace lockcheck::sim {
namespace {

RunConfig one_client_one_node() { return one_client_config(1); }

std::string call(World& world, Command command) { return call_master(world, std::move(command)); }

bool has_key(World& world, const std::string& key) {
  return world.node(0).mock().keyspace().database(0).entries.count(key) == 1;
}

TEST(SimTransaction, QueuedCommandsRunOnlyAtExec) {
  World world(one_client_one_node(), 1);
  EXPECT_EQ(call(world, {"MULTI"}), to_string(Reply::ok()));
  EXPECT_EQ(call(world, {"SET", "lock", "me", "PX", "30000"}), to_string(Reply::status("QUEUED")));
  EXPECT_FALSE(has_key(world, "lock"));
  EXPECT_EQ(call(world, {"EXEC"}), to_string(Reply::array({Reply::ok()})));
  EXPECT_TRUE(has_key(world, "lock"));
}

TEST(SimTransaction, ACrashedClientsOpenTransactionDiesWithItsConnection) {
  World world(one_client_one_node(), 1);
  EXPECT_EQ(call(world, {"WATCH", "lock"}), to_string(Reply::ok()));
  EXPECT_EQ(call(world, {"MULTI"}), to_string(Reply::ok()));
  world.apply(FaultSpec{.kind = FaultKind::crash, .process = 0});
  world.apply(FaultSpec{.kind = FaultKind::restart, .process = 0});
  EXPECT_EQ(call(world, {"SET", "lock", "me", "PX", "30000"}), to_string(Reply::ok())) << "not QUEUED on a new connection";
  EXPECT_TRUE(has_key(world, "lock"));
  EXPECT_EQ(call(world, {"EXEC"}), to_string(Reply::error("ERR EXEC without MULTI")));
}

}  // namespace
}  // namespace lockcheck::sim
