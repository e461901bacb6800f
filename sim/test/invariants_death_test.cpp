// The simulator's running invariants (LOCKCHECK_ASSERT) fire: each kind is made to break once here, and the
// process dies naming it, instead of the run going on with a broken world.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/blocking_pops.hpp"
#include "core/cluster_faults.hpp"
#include "core/cluster_topology.hpp"
#include "core/replication.hpp"
#include "core/resource.hpp"
#include "core/scheduler.hpp"
#include "core/sentinel_faults.hpp"
#include "core/sentinel_topology.hpp"
#include "core/world.hpp"
#include "lockcheck/stop_signal.hpp"
#include "model/history.hpp"
#include "redis/server/node.hpp"

namespace lockcheck::sim {
namespace {

constexpr const char* kBroken = "lockcheck invariant broken";

// The message of the check of `file` whose expression starts with `expression` (both regular expressions): the
// death must come from the invariant the test breaks, not from any other.
std::string broken_at(const std::string& file, const std::string& expression) {
  return file + ":[0-9]+: lockcheck invariant broken: " + expression;
}

TEST(InvariantsDeathTest, TrueTimeNeverGoesBack) {
  Scheduler scheduler;
  scheduler.advance_to(2000);
  EXPECT_DEATH(scheduler.advance_to(1999), kBroken);
}

TEST(InvariantsDeathTest, HistoryLinesComeInTimeOrder) {
  History history;
  history.record(HistoryLine(5000, "op"));
  history.record(HistoryLine(5000, "op"));  // equal times are fine: two events at one instant
  EXPECT_DEATH(history.record(HistoryLine(4999, "op")), kBroken);
  EXPECT_DEATH(history.record(4000, "fault", Json{{"i", 1}}), kBroken);  // the Json path too
}

TEST(InvariantsDeathTest, ADeadProcessNeitherDiesAgainNorPauses) {
  World world(RunConfig{}, 1);
  world.client(0).crash();
  EXPECT_DEATH(world.client(0).crash(), kBroken);
  EXPECT_DEATH(world.client(0).pause(), kBroken);
}

TEST(InvariantsDeathTest, APausedProcessIsNotPausedAgain) {
  World world(RunConfig{}, 1);
  world.client(1).pause();
  EXPECT_DEATH(world.client(1).pause(), kBroken);
}

// The parts a topology's faults act on, built by hand (World keeps them private), with a reply path that
// drops every answer.
struct Parts final : ReplyPath {
  explicit Parts(RunConfig run)
      : config(std::move(run)), network(config, 1), replication(config, 1, scheduler, nodes, *this) {
    for (std::size_t i = 0; i < config.nodes.size(); ++i) {
      nodes.push_back(std::make_unique<SimNode>(static_cast<int>(i), config.nodes[i], history, scheduler));
    }
  }
  void reply_to(int, int, Reply&&, std::shared_ptr<PendingCall>) override {}
  void connection_lost(int, int, std::shared_ptr<PendingCall>, std::string) override {}
  WorldParts world() { return WorldParts{config, scheduler, history, network, replication, nodes, 1}; }

  RunConfig config;
  Scheduler scheduler;
  History history;
  std::vector<std::unique_ptr<SimNode>> nodes;
  Network network;
  Replication replication;
};

RunConfig master_and_replica() {
  RunConfig config;
  config.nodes = std::vector<NodeConfig>(2);
  config.nodes[1].replica_of = 0;
  return config;
}

RunConfig cluster_of(int shards, int replicas_per_shard) {
  RunConfig config;
  config.cluster.shards = shards;
  config.cluster.replicas_per_shard = replicas_per_shard;
  config.nodes = cluster_nodes(config.cluster);
  return config;
}

RunConfig sentinel_with(int replicas) {
  RunConfig config;
  config.sentinel.sentinels = 3;
  config.sentinel.replicas = replicas;
  config.nodes = sentinel_nodes(config.sentinel);
  return config;
}

TEST(InvariantsDeathTest, AnEventHasSomethingToRun) {
  Scheduler scheduler;
  EXPECT_DEATH(scheduler.at(0, Action{}), broken_at(R"(scheduler\.cpp)", R"(slot < slot_count_)"));
}

TEST(InvariantsDeathTest, AWriteNamesAVersionTheRegisterHasReached) {
  History history;
  Scheduler scheduler;
  Register resource(history, scheduler, Fencing::off);
  const RegisterRead read = resource.read(0, 1);
  EXPECT_TRUE(resource.write(0, read.value + 1, read.version, 1));
  // version 2 was never handed out
  EXPECT_DEATH(resource.write(1, 7, read.version + 2, 2),
               broken_at(R"(resource\.cpp)", R"(process >= 0 && thread >= 0 && read_version)"));
  // nor is there a process -1
  EXPECT_DEATH(resource.read(-1, 2),
               broken_at(R"(resource\.cpp)", R"(process >= 0 && thread >= 0)"));
}

TEST(InvariantsDeathTest, ANodeCrashesOnlyWhenUpAndRestartsOnlyWhenDown) {
  World world(RunConfig{}, 1);
  EXPECT_DEATH(world.node(0).restart(RestartMode::kept), broken_at(R"(sim_node\.cpp)", R"(!up_)"));
  world.node(0).crash();
  EXPECT_DEATH(world.node(0).crash(), broken_at(R"(sim_node\.cpp)", R"(up_)"));
}

TEST(InvariantsDeathTest, ACrashedNodeRunsNoCommand) {
  World world(RunConfig{}, 1);
  bool changed = false;
  world.node(0).execute(0, Command{"GET", "lock"}, changed);  // fine while up
  world.node(0).crash();
  EXPECT_DEATH(world.node(0).execute(0, Command{"GET", "lock"}, changed),
               broken_at(R"(sim_node\.cpp)", R"(up_ && process >= 0)"));
}

TEST(InvariantsDeathTest, ANodeNeverReplicatesItself) {
  History history;
  Scheduler scheduler;
  NodeConfig config;
  config.replica_of = 0;
  EXPECT_DEATH({ SimNode node(0, config, history, scheduler); },
               broken_at(R"(sim_node\.cpp)", R"(id >= 0 && config\.replica_of != id)"));
}

TEST(InvariantsDeathTest, AKeyExpiresOnlyPastItsDeadline) {
  World world(RunConfig{}, 1);
  mock::KeyEvent early;
  early.kind = mock::KeyEventKind::expired;
  early.key = "lock";
  early.node_time_ms = 1000;
  early.expire_at_ms = 5000;  // the node clock has not reached it
  world.node(0).on_key_event(early);
  // the event's line is written here
  EXPECT_DEATH(world.node(0).active_expiry(),
               broken_at(R"(sim_node\.cpp)", R"(event\.kind != mock::KeyEventKind::expired)"));
}

TEST(InvariantsDeathTest, AReplicaRecordsOnlyItsOwnLosses) {
  World world(master_and_replica(), 1);
  // node 0's: only once promoted
  EXPECT_DEATH(world.node(1).record_losses(mock::Dataset{}, 0),
               broken_at(R"(sim_node\.cpp)", R"(node_of_record == id_)"));
}

TEST(InvariantsDeathTest, OnlyALiveMasterReplicates) {
  Parts parts(master_and_replica());
  parts.replication.replicate(*parts.nodes[0]);  // fine while up
  parts.nodes[0]->crash();
  EXPECT_DEATH(parts.replication.replicate(*parts.nodes[0]),
               broken_at(R"(replication\.cpp)", R"(master\.up\(\) && sequence >)"));
}

TEST(InvariantsDeathTest, WaitBlocksOnlyOnALiveMaster) {
  Parts parts(master_and_replica());
  EXPECT_DEATH(parts.replication.start_wait(0, 1, SimNode::WaitRequest{1, 100}, std::make_shared<PendingCall>()),
               broken_at(R"(replication\.cpp)", R"(nodes_\.at\(.*\)->up\(\) &&)"));  // node 1 is a replica
}

TEST(InvariantsDeathTest, OnlyAMasterThatWentDownLosesItsWaits) {
  Parts parts(master_and_replica());
  EXPECT_DEATH(parts.replication.drop_waits(0), broken_at(R"(replication\.cpp)", R"(!nodes_\.at)"));
  parts.nodes[0]->crash();
  parts.replication.drop_waits(0);  // fine once down
}

TEST(InvariantsDeathTest, OnlyALiveNodeHoldsBlockedClients) {
  Parts parts(master_and_replica());
  SimNode& node = *parts.nodes[0];
  mock::Session outside;  // a connection the simulated node does not know of: its crash leaves it blocked
  outside.client_id = 7;
  node.mock().execute(Command{"BLPOP", "queue", "5"}, outside);
  ASSERT_TRUE(outside.blocked);
  node.crash();
  BlockingPops pops(parts.scheduler, parts.nodes, parts);
  EXPECT_DEATH(pops.park(7, 0, std::make_shared<PendingCall>()),
               broken_at(R"(blocking_pops\.cpp)", R"(!deadline_ms \|\| node\.up\(\))"));
}

TEST(InvariantsDeathTest, EverySlotIsServedByAShardsMaster) {
  Parts parts(cluster_of(2, 1));
  // no shard at all
  EXPECT_DEATH({ ClusterTopology unserved(ClusterConfig{}, parts.nodes); },
               broken_at(R"(cluster_topology\.cpp)", R"(shards > 0)"));
}

TEST(InvariantsDeathTest, AFailoverPromotesAReplicaOfTheOldMaster) {
  Parts parts(cluster_of(2, 1));  // nodes 0 and 1 masters; node 2 replicates node 0, node 3 node 1
  ClusterTopology cluster(parts.config.cluster, parts.nodes);
  // another shard's replica
  EXPECT_DEATH(cluster.failover(0, 3),
               broken_at(R"(cluster_topology\.cpp)", R"(master_of\(old_master\) < 0 && master_of\(promoted\))"));
  // another master
  EXPECT_DEATH(cluster.failover(0, 1),
               broken_at(R"(cluster_topology\.cpp)", R"(master_of\(old_master\) < 0 && master_of\(promoted\))"));
  // a replica's "failover"
  EXPECT_DEATH(cluster.failover(2, 0),
               broken_at(R"(cluster_topology\.cpp)", R"(master_of\(old_master\) < 0 && master_of\(promoted\))"));
  cluster.failover(0, 2);
  EXPECT_EQ(cluster.master_of(0), 2);
}

TEST(InvariantsDeathTest, TheClusterFailsOverAndRestartsOnlyACrashedMaster) {
  Parts parts(cluster_of(2, 1));
  ClusterTopology cluster(parts.config.cluster, parts.nodes);
  ClusterFaults faults(parts.world(), cluster);
  EXPECT_DEATH(faults.watch_master(0), broken_at(R"(cluster_faults\.cpp)", R"(!node\(master\)\.up\(\))"));
  EXPECT_DEATH(faults.restart_failed_master(0, RestartMode::kept),
               broken_at(R"(cluster_faults\.cpp)", R"(!old_master\.up\(\))"));
}

TEST(InvariantsDeathTest, AReplicaNeverFollowsAnotherReplica) {
  Parts parts(sentinel_with(2));  // node 0 the master, nodes 1 and 2 its replicas
  SentinelTopology sentinel(parts.config.sentinel, parts.nodes);
  parts.nodes[2]->follow(1);
  EXPECT_DEATH(sentinel.assign_roles(),
               broken_at(R"(sentinel_topology\.cpp)", R"(static_cast<std::size_t>\(master\) < nodes_\.size\(\))"));
}

TEST(InvariantsDeathTest, OnlyASentinelOfTheDeploymentAnswersAsOne) {
  Parts parts(sentinel_with(1));
  SentinelTopology sentinel(parts.config.sentinel, parts.nodes);
  EXPECT_DEATH(sentinel.answer(sentinel.endpoint_count(), Command{"PING"}),
               broken_at(R"(sentinel_topology\.cpp)", R"(sentinel >= 0 && sentinel < config_\.sentinels)"));
}

TEST(InvariantsDeathTest, TheSentinelsWatchAndGateOnlyTheirMaster) {
  Parts parts(sentinel_with(1));
  SentinelTopology sentinel(parts.config.sentinel, parts.nodes);
  SentinelFaults faults(parts.world(), sentinel);
  // a replica
  EXPECT_DEATH(faults.watch_master(1),
               broken_at(R"(sentinel_faults\.cpp)", R"(master == sentinel_\.master\(\))"));
  // min-replicas-to-write is a master's
  EXPECT_DEATH(faults.gate_writes(*parts.nodes[1]),
               broken_at(R"(sentinel_faults\.cpp)", R"(master\.up\(\) && master\.replica_of\(\) < 0)"));
}

TEST(InvariantsDeathTest, AFaultWritesItsLineOnce) {
  World world(RunConfig{}, 1);
  FaultLine line(world, Json{{"fault", "heal"}});
  line.write();
  EXPECT_DEATH(world.carry_out(FaultSpec{.kind = FaultKind::heal}, line),
               broken_at(R"(world_nemesis\.cpp)", R"(!line\.written\(\))"));
}

TEST(InvariantsDeathTest, AWorldRunsOnce) {
  World world(RunConfig{}, 1);
  world.scheduler().at(0, [] {});
  world.scheduler().run_until(0, 1);
  EXPECT_DEATH(world.run(), broken_at(R"(world\.cpp)", R"(scheduler_\.events_run\(\) == 0)"));
}

TEST(InvariantsDeathTest, ASettledCallIsNotSent) {
  World world(RunConfig{}, 1);
  auto pending = std::make_shared<PendingCall>();
  pending->settle(CallResult::failed(CallStatus::unknown, "settled before it was sent"));
  EXPECT_DEATH(world.send(world.client(0), 0, Command{"GET", "lock"}, pending),
               broken_at(R"(world\.cpp)", R"(pending != nullptr && !pending->settled)"));
}

TEST(InvariantsDeathTest, OnlyARunningProcessSleeps) {
  World world(RunConfig{}, 1);
  world.client(0).pause();
  StopSignal stop;
  EXPECT_DEATH(
      {
        Task<void> sleep = world.client(0).clock().sleep_unless_stopped(Micros(1000), stop);
        sleep.start();
      },
      broken_at(R"(process\.cpp)", R"(process_\.alive\(\) && !process_\.paused\(\))"));
}

}  // namespace
}  // namespace lockcheck::sim
