// WAIT in the simulator: a master's reply waits until enough replicas applied its writes, or the timeout on
// the master's clock; a crash or failover of the master breaks the blocked connection. Commands are sent
// straight through World::send from an idle client, so every time below follows from the fixed delays.
#include <gtest/gtest.h>

#include <memory>

#include "core/simulate.hpp"
#include "core/world.hpp"

namespace lockcheck::sim {
namespace {

constexpr std::int64_t kOneWayUs = 100;

// One client; node 0 the master, `replica_lags_us.size()` replicas of it with fixed lags.
RunConfig wait_config(std::vector<std::int64_t> replica_lags_us) {
  RunConfig config;
  config.clients = std::vector<ClientConfig>(1);
  config.nodes = std::vector<NodeConfig>(1 + replica_lags_us.size());
  for (std::size_t i = 0; i < replica_lags_us.size(); ++i) {
    config.nodes[i + 1].replica_of = 0;
    config.nodes[i + 1].replication_lag_min_us = replica_lags_us[i];
    config.nodes[i + 1].replication_lag_max_us = replica_lags_us[i];
  }
  config.link.delay_min_us = kOneWayUs;
  config.link.delay_max_us = kOneWayUs;
  config.command_timeout_us = 60000000;  // never the reason a call settles here
  return config;
}

std::shared_ptr<PendingCall> send(World& world, Command command) {
  auto pending = std::make_shared<PendingCall>();
  world.send(world.client(0), 0, std::move(command), pending);
  return pending;
}

void run_to(World& world, std::int64_t t_us) { world.scheduler().run_until(t_us, 1000000); }

// SET now (applied on the master 100 us later), then WAIT sent 1 ms from now.
std::shared_ptr<PendingCall> set_then_wait(World& world, const std::string& numreplicas,
                                           const std::string& timeout_ms) {
  const auto set = send(world, Command{"SET", "lock", "me", "PX", "30000"});
  run_to(world, world.scheduler().now() + 1000);
  EXPECT_TRUE(set->settled && set->result.replied());
  return send(world, Command{"WAIT", numreplicas, timeout_ms});
}

// WAIT's answer so far: the integer it replied, or -1 while blocked (or when it settled without a reply).
std::int64_t answer(const PendingCall& wait) {
  const bool integer = wait.settled && wait.result.replied() && wait.result.reply.kind == Reply::Kind::integer;
  return integer ? wait.result.reply.integer : -1;
}

// Runs to `before_us`, when WAIT must still be blocked, then to `after_us`; returns its answer by then.
std::int64_t answer_between(World& world, const PendingCall& wait, std::int64_t before_us, std::int64_t after_us) {
  run_to(world, before_us);
  EXPECT_FALSE(wait.settled) << "WAIT answered before t=" << before_us << " us";
  run_to(world, after_us);
  return answer(wait);
}

TEST(SimWait, AnswersOnceTheReplicaHasAppliedTheWrite) {
  World world(wait_config({50000}), 1);
  const auto wait = set_then_wait(world, "1", "1000");
  EXPECT_EQ(answer_between(world, *wait, 50000, 50300), 1) << "the replica applies the SET at 50.1 ms";
}

TEST(SimWait, AnswersAtOnceWhenNothingIsOutstanding) {
  World world(wait_config({50000}), 1);
  const auto wait = send(world, Command{"WAIT", "1", "1000"});
  run_to(world, 2 * kOneWayUs);
  EXPECT_EQ(answer(*wait), 1);
}

TEST(SimWait, TimesOutWithTheReplicasThatAcknowledged) {
  World world(wait_config({5000, 400000}), 1);  // a fast replica and one lagging past the timeout
  const auto wait = set_then_wait(world, "2", "100");
  // The slow replica is far behind: WAIT blocks for its whole timeout, and only the fast one acknowledged.
  EXPECT_EQ(answer_between(world, *wait, 100000, 101300), 1);
}

TEST(SimWait, TimeoutRunsOnTheMastersClock) {
  RunConfig config = wait_config({400000});
  config.nodes[0].clock.drift_ppm = 1000000;  // the master's clock runs twice as fast: 100 ms pass in 50
  World world(config, 1);
  const auto wait = set_then_wait(world, "1", "100");
  EXPECT_EQ(answer_between(world, *wait, 50000, 51300), 0);
}

TEST(SimWait, ACrashedReplicaDoesNotAcknowledge) {
  World world(wait_config({5000}), 1);
  world.apply(FaultSpec{.kind = FaultKind::node_crash, .node = 1});
  const auto wait = set_then_wait(world, "1", "100");
  EXPECT_EQ(answer_between(world, *wait, 100000, 101300), 0);
}

TEST(SimWait, APartitionedReplicaDoesNotAcknowledgeAndCatchesUpWhenHealed) {
  World world(wait_config({5000}), 1);
  world.apply(FaultSpec{.kind = FaultKind::replica_partition, .node = 1});
  const auto cut = set_then_wait(world, "1", "100");
  EXPECT_EQ(answer_between(world, *cut, 100000, 101300), 0);
  world.apply(FaultSpec{.kind = FaultKind::heal});
  const auto healed = send(world, Command{"WAIT", "1", "100"});
  EXPECT_EQ(answer_between(world, *healed, 105000, 106500), 1) << "resynchronised 5 ms after the heal";
}

TEST(SimWait, AReplicaRestartedWithoutDataAcknowledgesOnlyNewWrites) {
  World world(wait_config({5000}), 1);
  const auto first = set_then_wait(world, "1", "100");
  run_to(world, 10000);
  ASSERT_EQ(answer(*first), 1);
  world.apply(FaultSpec{.kind = FaultKind::node_crash, .node = 1});
  world.apply(FaultSpec{.kind = FaultKind::node_restart, .node = 1, .mode = RestartMode::lost});
  const auto stale = send(world, Command{"WAIT", "1", "50"});
  run_to(world, 70000);
  EXPECT_EQ(answer(*stale), 0) << "its acknowledgement went with its data";
  const auto fresh = set_then_wait(world, "1", "100");
  run_to(world, 90000);
  EXPECT_EQ(answer(*fresh), 1);
}

TEST(SimWait, MasterCrashBreaksTheBlockedConnection) {
  World world(wait_config({400000}), 1);
  const auto wait = set_then_wait(world, "1", "300");
  run_to(world, 20000);
  world.apply(FaultSpec{.kind = FaultKind::node_crash, .node = 0});
  run_to(world, 20000 + 2 * kOneWayUs);
  ASSERT_TRUE(wait->settled);
  EXPECT_EQ(wait->result.status, CallStatus::unknown) << wait->result.detail;
}

TEST(SimWait, FailoverBreaksTheBlockedConnectionAndTheNewMasterCountsItsOwnReplicas) {
  World world(wait_config({400000, 5000}), 1);  // node 1 lags, node 2 is fast
  const auto wait = set_then_wait(world, "2", "300");
  run_to(world, 20000);
  EXPECT_FALSE(wait->settled);
  world.apply(FaultSpec{.kind = FaultKind::failover, .node = 2});
  run_to(world, 20000 + 2 * kOneWayUs);
  ASSERT_TRUE(wait->settled);
  EXPECT_EQ(wait->result.status, CallStatus::unknown);
  // Node 2 now serves the lock; node 1 follows it and catches up with its first write.
  const auto again = set_then_wait(world, "1", "1000");
  run_to(world, 500000);
  EXPECT_EQ(answer(*again), 1);
}

// The token-wait variant through the whole simulator: with a replica it locks as `token` does, and the same
// seed gives the same history; with no replica, or one lagging past the WAIT timeout, no acquire can ever
// succeed (WAIT's liveness cost).
std::size_t acquisitions(const RunResult& run) {
  std::size_t count = 0;
  for (const auto& line : run.history.lines()) {
    count += line.find(R"("type":"ok","process":0,"f":"acquire")") != std::string::npos ? 1 : 0;
  }
  return count;
}

TEST(SimWait, TokenWaitLocksOnlyWithAReplicaThatKeepsUp) {
  RunConfig config;
  config.variant = "token-wait";
  config.lock.ttl = Millis(1000);
  config.duration_us = 3000000;
  config.nodes = std::vector<NodeConfig>(2);
  config.nodes[1].replica_of = 0;
  const RunResult replicated = simulate(config, 1);
  EXPECT_GT(acquisitions(replicated), 3u);
  EXPECT_EQ(replicated.history.jsonl(), simulate(config, 1).history.jsonl());

  RunConfig slow = config;
  slow.nodes[1].replication_lag_min_us = 300000;  // beyond the 200 ms WAIT timeout
  slow.nodes[1].replication_lag_max_us = 400000;
  EXPECT_EQ(acquisitions(simulate(slow, 1)), 0u);

  config.nodes.resize(1);
  EXPECT_EQ(acquisitions(simulate(config, 1)), 0u);
}

}  // namespace
}  // namespace lockcheck::sim
