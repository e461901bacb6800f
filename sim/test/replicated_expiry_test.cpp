// A master's active expiry and its evictions reach its replicas, as Redis propagates a DEL for each key it
// expires or evicts: a replica promoted after the master removed a lock key must not bring it back (the explore
// gate at 1000 runs, seed 377: node 1, promoted, still counted a reentrant hold node 0 had expired, and the owner
// re-entered it).
#include <gtest/gtest.h>

#include "core/world.hpp"
#include "direct_call.hpp"
#include "redis/server/node.hpp"

namespace lockcheck::sim {
namespace {

bool has_key(World& world, int node, const std::string& key) {
  return world.node(node).mock().keyspace().database(0).entries.count(key) > 0;
}

TEST(SimReplicatedExpiry, AKeyTheMasterExpiredIsGoneOnItsReplica) {
  RunConfig config = one_client_config(2);
  config.nodes[1].replica_of = 0;
  config.duration_us = 2'000'000;
  World world(config, 1);
  world.start_maintenance();
  EXPECT_EQ(call_master(world, {"SET", "k", "v", "PX", "100"}), "OK");
  world.scheduler().run_until(world.scheduler().now() + 20'000, 1'000'000);
  ASSERT_TRUE(has_key(world, 1, "k")) << "the replica never had the key: nothing to test";
  // No command after the SET: only the master's active expiry can remove it, within a second.
  world.scheduler().run_until(world.scheduler().now() + 1'000'000, 10'000'000);
  EXPECT_FALSE(has_key(world, 0, "k")) << "the master did not expire it";
  EXPECT_FALSE(has_key(world, 1, "k")) << "the master's expiry never reached its replica";
}

TEST(SimReplicatedExpiry, AKeyTheMasterEvictedIsGoneOnItsReplica) {
  RunConfig config = one_client_config(2);
  config.nodes[1].replica_of = 0;
  World world(config, 1);
  EXPECT_EQ(call_master(world, {"SET", config.workload.key, "v"}), "OK");
  world.scheduler().run_until(world.scheduler().now() + 20'000, 1'000'000);
  ASSERT_TRUE(has_key(world, 1, config.workload.key)) << "the replica never had the key: nothing to test";
  world.apply(FaultSpec{.at_us = world.scheduler().now(), .kind = FaultKind::evict, .node = 0, .evict_target = EvictTarget::lock});
  world.scheduler().run_until(world.scheduler().now() + 20'000, 1'000'000);  // past the replica's lag
  EXPECT_FALSE(has_key(world, 0, config.workload.key)) << "the master did not evict it";
  EXPECT_FALSE(has_key(world, 1, config.workload.key)) << "the master's eviction never reached its replica";
}

}  // namespace
}  // namespace lockcheck::sim
