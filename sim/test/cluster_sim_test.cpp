// The library's locks on a simulated Redis Cluster: commands reach the shard serving the lock key's slot,
// a multi-slot variant gets CROSSSLOT, and a shard failover is followed by the client.
#include <gtest/gtest.h>

#include <string>

#include "core/simulate.hpp"
#include "count_lines.hpp"
#include "lockcheck/key_slot.hpp"

namespace lockcheck::sim {
namespace {

RunConfig cluster_config(int shards, int replicas) {
  RunConfig config;
  config.scenario = "cluster-test";
  config.lock.ttl = Millis(1000);
  config.duration_us = 3000000;
  config.cluster.shards = shards;
  config.cluster.replicas_per_shard = replicas;
  config.nodes = cluster_nodes(config.cluster);
  return config;
}

TEST(ClusterSim, TokenLockRunsOnTheShardOfItsSlot) {
  // "lock" hashes to slot 8718: the second of three shards (5462-10922) serves it.
  ASSERT_EQ(key_hash_slot("lock"), 8718);
  const RunResult run = simulate(cluster_config(3, 0), 1);
  EXPECT_GT(count_lines(run, R"("type":"ok","process":0,"f":"acquire")"), 5u);
  EXPECT_GT(count_lines(run, R"("kind":"server","node":1,"event":"created")"), 10u);
  EXPECT_EQ(count_lines(run, R"("kind":"server","node":0,)"), 0u);
  EXPECT_EQ(count_lines(run, R"("kind":"server","node":2,)"), 0u);
  EXPECT_EQ(count_lines(run, R"("stale":true)"), 0u);
  EXPECT_EQ(count_lines(run, R"("shards":[{"node":0,"slots":[[0,5461]]},{"node":1,"slots":[[5462,10922]]},{"node":2,"slots":[[10923,16383]]}])"), 1u);
}

TEST(ClusterSim, HashTaggedKeysFollowTheirTag) {
  RunConfig config = cluster_config(3, 0);
  config.workload.key = "{orders}lock";  // slot of "orders"
  const int shard = key_hash_slot("orders") <= 5461 ? 0 : key_hash_slot("orders") <= 10922 ? 1 : 2;
  const RunResult run = simulate(config, 2);
  EXPECT_GT(count_lines(run, R"("kind":"server","node":)" + std::to_string(shard) + R"(,"event":"created")"), 10u);
}

TEST(ClusterSim, TwoKeyReadWriteLockGetsCrossSlot) {
  RunConfig config = cluster_config(3, 0);
  config.variant = "rw-two-keys";  // "lock:read" (12178) and "lock:write" (12357): two slots
  ASSERT_NE(key_hash_slot("lock:read"), key_hash_slot("lock:write"));
  config.workload.readers_ppm = 500000;
  const RunResult run = simulate(config, 3);
  EXPECT_EQ(count_lines(run, R"("type":"ok","f":"acquire")"), 0u);
  EXPECT_EQ(count_lines(run, R"("kind":"server","event":"created")"), 0u);
  EXPECT_GT(count_lines(run, "CROSSSLOT Keys in request don't hash to the same slot"), 0u);
}

TEST(ClusterSim, ShardFailoverIsFollowed) {
  RunConfig config = cluster_config(3, 1);  // node 4 replicates node 1, which serves "lock"
  config.faults.push_back(FaultSpec{.at_us = 1000000, .kind = FaultKind::failover, .node = 4});
  const RunResult run = simulate(config, 4);
  EXPECT_EQ(count_lines(run, R"("fault":"failover","node":4,"from":1)"), 1u);
  EXPECT_GT(count_lines(run, R"("kind":"server","node":4,"event":"created")"), 3u) << "acquires continue at the new master";
}

TEST(ClusterSim, SlotMigrationWhileHeldIsFollowedWithAskThenMoved) {
  RunConfig config = cluster_config(3, 0);  // "lock" (slot 8718) moves from node 1 to node 2
  config.workload.hold_min_us = 200000;
  config.workload.hold_max_us = 400000;
  config.faults.push_back(FaultSpec{.at_us = 1000000, .kind = FaultKind::slot_migration, .node = 2, .duration_us = 600000});
  const RunResult run = simulate(config, 5);
  EXPECT_EQ(count_lines(run, R"("fault":"slot_migration","node":2,"from":1,"slot":8718)"), 1u);
  EXPECT_EQ(count_lines(run, R"("fault":"slot_migrated","node":2,"slot":8718)"), 1u);
  EXPECT_GT(count_lines(run, R"("kind":"server","node":2,"event":"created","key":"lock")"), 1u) << "the lock lives on node 2 now";
  EXPECT_EQ(count_lines(run, R"("stale":true)"), 0u);
}

// A second migration of a slot that is still migrating does not start: redis-cli --cluster refuses to reshard
// an open slot. Started, it re-pointed the slot at node 0 after the keys had gone to node 2, which kept them in
// a slot it never owned: the lock key vanished (explore found it as a lost renewal and a second holder).
TEST(ClusterSim, ASlotAlreadyMigratingIsNotMigratedAgain) {
  RunConfig config = cluster_config(3, 0);  // "lock" (slot 8718) on node 1
  config.workload.hold_min_us = 200000;
  config.workload.hold_max_us = 400000;
  config.faults.push_back(FaultSpec{.at_us = 1000000, .kind = FaultKind::slot_migration, .node = 2, .duration_us = 600000});
  config.faults.push_back(FaultSpec{.at_us = 1200000, .kind = FaultKind::slot_migration, .node = 0, .duration_us = 200000});
  const RunResult run = simulate(config, 5);
  EXPECT_EQ(count_lines(run, R"("fault":"slot_migration","node":2,"from":1,"slot":8718)"), 1u);
  EXPECT_EQ(count_lines(run, R"("fault":"slot_migration","node":0,"from":)"), 0u) << "the second one is skipped";
  EXPECT_EQ(count_lines(run, R"("fault":"slot_migrated","node":2,"slot":8718)"), 1u);
  EXPECT_EQ(count_lines(run, R"("fault":"slot_migrated","node":0)"), 0u);
  EXPECT_GT(count_lines_between(run, R"("kind":"server","node":2,"event":"created","key":"lock")", 1600000 + 1), 1u);
  EXPECT_EQ(count_lines(run, R"("stale":true)"), 0u);
}

// A MIGRATE to a node that is down fails, and redis-cli --cluster stops there: the keys stay with their
// owner and the slot stays open (MIGRATING/IMPORTING), never handed to the target. The keys once went into
// the crashed target's memory, which its restart then wiped: the held lock key vanished from the cluster.
TEST(ClusterSim, AMigrationWhoseTargetIsDownMovesNoKeyAndHandsNoSlot) {
  RunConfig config = cluster_config(3, 0);  // "lock" (slot 8718) on node 1
  config.clients = std::vector<ClientConfig>(1);
  config.lock.ttl = Millis(3000);
  config.workload.hold_min_us = 1500000;  // held from the start until about 1.5 s
  config.workload.hold_max_us = 1500000;
  config.faults.push_back(FaultSpec{.at_us = 1000000, .kind = FaultKind::slot_migration, .node = 2, .duration_us = 600000});
  config.faults.push_back(FaultSpec{.at_us = 1000500, .kind = FaultKind::node_crash, .node = 2});  // before the MIGRATE
  config.faults.push_back(FaultSpec{.at_us = 1200000, .kind = FaultKind::node_restart, .node = 2, .mode = RestartMode::lost});
  const RunResult run = simulate(config, 5);
  ASSERT_EQ(count_lines(run, R"("fault":"slot_migration","node":2,"from":1,"slot":8718)"), 1u);
  EXPECT_EQ(count_lines(run, R"("fault":"slot_migrated")"), 0u) << "the reshard stopped at the failed MIGRATE";
  EXPECT_EQ(count_lines_between(run, R"("kind":"server","node":1,"event":"deleted","key":"lock")", 1000000, 1600000), 1u)
      << "the holder's release found its key where it was";
  // (After the release a new holder may create it at node 2: the open slot ASKs there for a missing key.)
  EXPECT_EQ(count_lines_between(run, R"("kind":"server","node":2,"event":"created","key":"lock")", 1000000, 1400000), 0u);
  EXPECT_EQ(count_lines(run, R"("result":"not_owned")"), 0u);
}

// A master restarted (not failed over) starts with its cluster state FAIL and turns it OK only 2 s after its
// start (Redis's CLUSTER_WRITABLE_DELAY in clusterUpdateState), so that the cluster can reconfigure it first:
// until then it answers CLUSTERDOWN. The simulator once let it serve at once.
TEST(ClusterSim, ARestartedMasterAnswersClusterDownForTwoSeconds) {
  RunConfig config = cluster_config(3, 0);  // "lock" (slot 8718) on node 1
  config.duration_us = 5000000;
  config.clients = std::vector<ClientConfig>(2);
  config.workload.hold_min_us = 50000;
  config.workload.hold_max_us = 100000;
  config.faults.push_back(FaultSpec{.at_us = 1000000, .kind = FaultKind::node_crash, .node = 1});
  config.faults.push_back(FaultSpec{.at_us = 1200000, .kind = FaultKind::node_restart, .node = 1, .mode = RestartMode::kept});
  const RunResult run = simulate(config, 5);
  const std::string created = R"("kind":"server","node":1,"event":"created","key":"lock")";
  EXPECT_EQ(count_lines_between(run, created, 1000000, 3200000), 0u) << "no grant while its state is FAIL";
  EXPECT_GT(count_lines_between(run, created, 3200000), 0u) << "it serves again once the delay is over";
}

TEST(ClusterSim, TwoKeyLockKeepsWorkingAfterItsSlotMigrates) {
  // The fenced lock's script touches "{lock}" and "{lock}:fence": while the slot moves and the lock is free,
  // the importing node answers -TRYAGAIN (one key there, one missing). Nothing ran: clients wait and retry,
  // and none stops on a server error.
  RunConfig config = cluster_config(3, 0);
  config.variant = "fenced";
  config.workload.key = "{lock}";
  config.workload.hold_min_us = 100000;
  config.workload.hold_max_us = 300000;
  config.faults.push_back(FaultSpec{.at_us = 1000000, .kind = FaultKind::slot_migration, .node = 2, .duration_us = 600000});
  const RunResult run = simulate(config, 7);
  ASSERT_EQ(count_lines(run, R"("fault":"slot_migrated","node":2)"), 1u);
  EXPECT_EQ(count_lines(run, R"("error":true)"), 0u);
  EXPECT_GT(count_lines_between(run, R"("type":"ok","process":0,"f":"acquire")", 1600000 + 1), 0u);
  EXPECT_GT(count_lines_between(run, R"("type":"ok","process":1,"f":"acquire")", 1600000 + 1), 0u);
  EXPECT_GT(count_lines_between(run, R"("kind":"server","node":2,"event":"created","key":"{lock}")", 1600000 + 1), 1u);
}

// Node 1 (shard 1's master) cut off with process 0 at 1 s, node timeout 1.5 s, healed at 4 s.
RunConfig split_brain_of_node_1(Millis ttl) {
  RunConfig config = cluster_config(3, 1);
  config.duration_us = 6000000;
  config.lock.ttl = ttl;
  config.cluster.node_timeout_us = 1500000;
  config.workload.hold_min_us = 100000;
  config.workload.hold_max_us = 300000;
  config.faults.push_back(FaultSpec{.at_us = 1000000, .kind = FaultKind::split_brain, .process = 0, .node = 1});
  config.faults.push_back(FaultSpec{.at_us = 4000000, .kind = FaultKind::heal});
  return config;
}

// A master restarted at 0.7 s waits out its writable delay until 2.7 s; cut off at 1 s, the majority fails it over
// at 2.5 s, within the delay: it is no master to wait any more, and its old view stays down until the heal.
TEST(ClusterSim, AMasterFailedOverWithinItsWritableDelayStaysDownUntilItRejoins) {
  RunConfig config = split_brain_of_node_1(Millis(500));
  config.faults.insert(config.faults.begin(), {FaultSpec{.at_us = 500000, .kind = FaultKind::node_crash, .node = 1},
                                               FaultSpec{.at_us = 700000, .kind = FaultKind::node_restart, .node = 1,
                                                         .mode = RestartMode::kept}});
  const RunResult run = simulate(config, 3);
  EXPECT_EQ(count_lines(run, R"("fault":"failover","node":4,"from":1)"), 1u);
  EXPECT_EQ(count_lines_between(run, R"("kind":"server","node":1,"event":"created")", 700000, 4000000), 0u)
      << "down within its delay, then failed over: no grant on node 1 until it rejoins";
}

TEST(ClusterSim, SplitBrainMasterServesItsSideThenRefusesThenRejoinsAsReplica) {
  const RunConfig config = split_brain_of_node_1(Millis(500));
  const RunResult run = simulate(config, 6);
  EXPECT_EQ(count_lines(run, R"("fault":"split_brain","node":1,"process":0)"), 1u);
  EXPECT_EQ(count_lines(run, R"("fault":"failover","node":4,"from":1)"), 1u);
  // Process 0 keeps using node 1 inside the node timeout; afterwards node 1 refuses it.
  const std::string node1_write = R"("kind":"server","node":1,"event":"created")";
  EXPECT_EQ(count_lines_between(run, node1_write, 2500000), 0u) << "node 1 accepts no write after the node timeout";
  EXPECT_GT(count_lines_between(run, node1_write, 1000000 + 1, 2500000), 0u);
  // Its CLUSTERDOWN refusals ran nothing: process 0 waits them out and, once healed, acquires again.
  EXPECT_EQ(count_lines(run, R"("error":true)"), 0u);
  EXPECT_GT(count_lines_between(run, R"("type":"ok","process":0,"f":"acquire")", 4000000 + 1), 0u);
  EXPECT_GT(count_lines(run, R"("kind":"server","node":4,"event":"created")"), 0u) << "the majority side goes on";
}

// The history says what the real backend's says for the same split-brain (topology_cluster_split.cpp): the
// old master is alive at the promotion, so the failover line carries `from_serving` (the server-level rule
// judges its grants against the promoted node's), and at the heal a `rejoin` line, with what it alone
// accepted `lost`.
TEST(ClusterSim, SplitBrainFailoverLineSaysTheOldMasterStillServesAndTheHealSaysRejoin) {
  const RunConfig config = split_brain_of_node_1(Millis(5000));
  const RunResult run = simulate(config, 6);
  EXPECT_EQ(count_lines(run, R"("fault":"failover","node":4,"from":1,"by":"cluster","from_serving":true)"), 1u);
  EXPECT_EQ(count_lines(run, R"("fault":"rejoin","node":1,"master":4)"), 1u);
  EXPECT_EQ(count_lines_between(run, R"("fault":"rejoin")", 0, 4000000), 0u) << "it rejoins at the heal";
}

TEST(ClusterSim, SplitBrainMasterCrashedBeforeTheFailoverIsNotServing) {
  RunConfig config = cluster_config(3, 1);
  config.duration_us = 4000000;
  config.cluster.node_timeout_us = 1500000;
  config.faults.push_back(FaultSpec{.at_us = 1000000, .kind = FaultKind::split_brain, .process = 0, .node = 1});
  config.faults.push_back(FaultSpec{.at_us = 1500000, .kind = FaultKind::node_crash, .node = 1});
  const RunResult run = simulate(config, 6);
  EXPECT_EQ(count_lines(run, R"("fault":"failover","node":4,"from":1)"), 1u);
  EXPECT_EQ(count_lines(run, R"("from_serving")"), 0u);
}

// A crashed master's shard fails over by itself after the node timeout, as a real cluster does (no `failover`
// fault); the old master restarted later rejoins as the new master's replica, as the real backend records it
// (redis_backend/topology_cluster_crash.cpp).
RunConfig crashed_master_config() {
  RunConfig config = cluster_config(3, 1);
  config.duration_us = 6000000;
  config.cluster.node_timeout_us = 1000000;
  config.faults.push_back(FaultSpec{.at_us = 1000000, .kind = FaultKind::node_crash, .node = 1});
  config.faults.push_back(FaultSpec{.at_us = 4000000, .kind = FaultKind::node_restart, .node = 1, .mode = RestartMode::lost});
  return config;
}

TEST(ClusterSim, CrashedMasterIsFailedOverAfterTheNodeTimeoutAndRejoinsAsReplica) {
  const RunResult run = simulate(crashed_master_config(), 6);
  EXPECT_EQ(count_lines(run, R"("fault":"failover","node":4,"from":1,"by":"cluster"})"), 1u);
  EXPECT_EQ(count_lines_between(run, R"("fault":"failover")", 0, 2000000), 0u) << "not before the node timeout";
  EXPECT_EQ(count_lines(run, R"("fault":"rejoin","node":1,"master":4)"), 1u);
  EXPECT_GT(count_lines_between(run, R"("type":"ok","process":1,"f":"acquire")", 2000000 + 1), 0u);
  EXPECT_EQ(count_lines_between(run, R"("kind":"server","node":1,"event":"created")", 4000000), 0u)
      << "a replica takes no writes";
}

TEST(ClusterSim, MasterRestartedWithinTheNodeTimeoutStaysMaster) {
  RunConfig config = crashed_master_config();
  config.faults.back().at_us = 1500000;
  const RunResult run = simulate(config, 6);
  EXPECT_EQ(count_lines(run, R"("fault":"failover")"), 0u);
  EXPECT_EQ(count_lines(run, R"("fault":"rejoin")"), 0u);
  EXPECT_GT(count_lines_between(run, R"("kind":"server","node":1,"event":"created")", 1500000), 0u);
}

TEST(ClusterSim, SameSeedSameHistory) {
  RunConfig config = cluster_config(3, 1);
  config.faults.push_back(FaultSpec{.at_us = 800000, .kind = FaultKind::failover, .node = 4});
  EXPECT_EQ(simulate(config, 9).history.jsonl(), simulate(config, 9).history.jsonl());
}

}  // namespace
}  // namespace lockcheck::sim
