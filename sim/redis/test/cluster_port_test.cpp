// The library's ClusterPort against mock cluster nodes: slot map from CLUSTER SLOTS, MOVED, ASK + ASKING,
// bounded redirects, and a refresh after a failover moved a shard to its replica.
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "cluster_test_support.hpp"
#include "lockcheck/cluster_port.hpp"

namespace lockcheck::mock::testing {
namespace {

// Node i of the port is nodes[i]; a node marked down refuses (the command did not run). Counts calls.
class DirectPort final : public Port {
 public:
  explicit DirectPort(std::vector<Node*> nodes) : nodes_(std::move(nodes)), sessions_(nodes_.size()), down_(nodes_.size()) {}
  std::size_t node_count() const override { return nodes_.size(); }
  Task<CallResult> call(std::size_t node, Command command) override {
    ++calls;
    sent_to.push_back(node);
    if (down_[node]) co_return CallResult::failed(CallStatus::not_sent, "connection refused");
    co_return CallResult::of(nodes_[node]->execute(command, sessions_[node]));
  }
  void set_down(std::size_t node) { down_[node] = true; }
  int calls = 0;
  std::vector<std::size_t> sent_to;

 private:
  std::vector<Node*> nodes_;
  std::vector<Session> sessions_;
  std::vector<bool> down_;
};

// Time passes only when the port sleeps; `at_ms` runs once that much has been slept in all.
class SteppingClock final : public Clock {
 public:
  MonoTime monotonic_now() override { return MonoTime(slept); }
  Millis wall_now() override { return std::chrono::duration_cast<Millis>(slept); }
  Task<void> sleep(Micros duration) override {
    ++sleeps;
    slept += duration;
    if (at && slept >= at->first) std::exchange(at, std::nullopt)->second();
    co_return;
  }
  Micros slept{0};
  int sleeps = 0;
  std::optional<std::pair<Micros, std::function<void()>>> at;
};

class ClusterPortTest : public ::testing::Test, public TwoShards {
 protected:
  DirectPort nodes{{&node0, &node1, &replica}};
  SteppingClock clock;
  ClusterPort port{nodes, clock, {"127.0.0.1:30001", "127.0.0.1:30002", "127.0.0.1:30003"}};
  CallResult call(Command command) { return run_sync(port.call(0, std::move(command))); }
};

TEST_F(ClusterPortTest, RoutesBySlotFromClusterSlots) {
  EXPECT_EQ(to_string(call({"SET", "foo", "1"}).reply), to_string(Reply::ok()));  // slot 12182: node 1
  EXPECT_EQ(to_string(call({"SET", "bar", "2"}).reply), to_string(Reply::ok()));  // slot 5061: node 0
  EXPECT_EQ(port.node_for_slot(12182), 1u);
  EXPECT_EQ(port.node_for_slot(5061), 0u);
  EXPECT_EQ(to_string(run(node1, {"GET", "foo"})), to_string(B("1")));
  EXPECT_EQ(to_string(run(node0, {"GET", "bar"})), to_string(B("2")));
  EXPECT_EQ(nodes.calls, 3);  // one CLUSTER SLOTS, then each command straight to its master
  EXPECT_EQ(to_string(call({"DEL", "foo", "bar"}).reply),
            to_string(E("CROSSSLOT Keys in request don't hash to the same slot")));
}

TEST_F(ClusterPortTest, FollowsMovedAndUpdatesItsMap) {
  call({"PING"});  // loads the map
  // Slot 5061 moves to node 1 behind the client's back.
  view->slot_owner[5061] = 1;
  share();
  nodes.calls = 0;
  EXPECT_EQ(to_string(call({"SET", "bar", "2"}).reply), to_string(Reply::ok()));
  EXPECT_EQ(to_string(run(node1, {"GET", "bar"})), to_string(B("2")));
  EXPECT_EQ(nodes.calls, 2);  // MOVED from node 0, then node 1
  EXPECT_EQ(port.node_for_slot(5061), 1u);
}

TEST_F(ClusterPortTest, AskRetriesOnceWithAsking) {
  call({"PING"});
  view->migrating[5061] = 1;
  view->importing[5061] = 0;
  share();
  EXPECT_EQ(to_string(call({"SET", "{bar}new", "1"}).reply), to_string(Reply::ok()));  // missing here: ASK
  EXPECT_EQ(node1.keyspace().database(0).entries.count("{bar}new"), 1u);  // written at the importing node
  EXPECT_EQ(node0.keyspace().database(0).entries.count("{bar}new"), 0u);
  EXPECT_EQ(port.node_for_slot(5061), 0u);  // ASK does not move the slot in the map
}

TEST_F(ClusterPortTest, RedirectsAreBounded) {
  call({"PING"});
  // Two nodes that each believe the other serves the slot: a redirect loop.
  auto to_one = std::make_shared<ClusterView>(*view);
  to_one->slot_owner[5061] = 1;
  auto to_zero = std::make_shared<ClusterView>(*view);
  node0.set_cluster_view(to_one, 0);
  node1.set_cluster_view(to_zero, 1);
  nodes.calls = 0;
  const CallResult result = call({"GET", "bar"});
  EXPECT_EQ(result.status, CallStatus::not_sent) << "a redirect ran nothing";
  EXPECT_NE(result.detail.find("MOVED 5061"), std::string::npos) << result.detail;
  EXPECT_LE(nodes.calls, 1 + 5 + 1);  // the first try, max_redirects hops and one map refresh
}

// Slot 5061 migrates from node 0 to node 1 and "{bar}moved" is already at node 1: a two-key command on the
// slot gets -ASK from node 0 (a key missing there) and -TRYAGAIN from node 1 (a key missing there too) until
// the migration ends. Nothing ran, so the port waits and tries again, then says "not sent".
struct MidMigration {
  explicit MidMigration(TwoShards& shards) {
    shards.view->migrating[5061] = 1;
    shards.view->importing[5061] = 0;
    shards.share();
    shards.run(shards.node1, {"ASKING"});
    shards.run(shards.node1, {"SET", "{bar}moved", "1"});
  }
};

TEST_F(ClusterPortTest, PersistentTryAgainIsNotSentAfterBoundedWaits) {
  call({"PING"});
  MidMigration migrating(*this);
  nodes.calls = 0;
  const CallResult result = call({"DEL", "{bar}moved", "{bar}missing"});
  ASSERT_EQ(result.status, CallStatus::not_sent) << to_string(result.reply);
  EXPECT_NE(result.detail.find("TRYAGAIN"), std::string::npos) << result.detail;
  EXPECT_EQ(node1.keyspace().database(0).entries.count("{bar}moved"), 1u) << "nothing ran";
  EXPECT_NE(result.detail.find("still after 5 re-sends over 250 ms"), std::string::npos) << result.detail;
  EXPECT_EQ(clock.sleeps, 5);  // 10 + 20 + 40 + 80 + 100 ms (the rest of the 250 ms budget)
  EXPECT_EQ(clock.slept, Micros(250'000));
  EXPECT_LE(nodes.calls, 3 * 6);  // the command at node 0, ASKING and the command at node 1, per try
}

TEST_F(ClusterPortTest, ClusterDownIsRetriedAfterReadingTheMapAgain) {
  call({"PING"});
  auto down = std::make_shared<ClusterView>(*view);
  down->state_ok = false;
  node0.set_cluster_view(down, 0);
  nodes.calls = 0;
  const CallResult result = call({"SET", "bar", "1"});
  EXPECT_EQ(result.status, CallStatus::not_sent);
  EXPECT_NE(result.detail.find("CLUSTERDOWN"), std::string::npos) << result.detail;
  EXPECT_EQ(node0.keyspace().database(0).entries.count("bar"), 0u) << "nothing ran";
  EXPECT_EQ(clock.sleeps, 5);
}

TEST_F(ClusterPortTest, TryAgainIsWaitedOutUntilTheMigrationEnds) {
  call({"PING"});
  run(node0, {"SET", "{bar}stays", "1"});
  MidMigration migrating(*this);  // node 0 has "{bar}stays", node 1 "{bar}moved": TRYAGAIN at node 0
  // After 25 ms of waiting, the last key moves and SETSLOT NODE gives slot 5061 to node 1 everywhere.
  clock.at = {Micros(25'000), [this] {
                run(node0, {"DEL", "{bar}stays"});
                view->slot_owner[5061] = 1;
                view->migrating.clear();
                view->importing.clear();
                share();
                run(node1, {"SET", "{bar}stays", "1"});
              }};
  const CallResult result = call({"DEL", "{bar}moved", "{bar}stays"});
  ASSERT_TRUE(result.replied()) << result.detail;
  EXPECT_EQ(to_string(result.reply), to_string(Reply::integer_reply(2)));
  EXPECT_EQ(clock.sleeps, 2);  // 10 ms, then 20 ms
}

TEST_F(ClusterPortTest, RefreshesAfterFailover) {
  call({"SET", "bar", "1"});
  // The shard of node 0 fails over to its replica (node 2); the other nodes learn it.
  nodes.set_down(0);
  view->slot_owner.fill(1);
  for (int slot = 0; slot < 8192; ++slot) view->slot_owner[static_cast<std::size_t>(slot)] = 2;
  view->nodes[2].master = -1;
  view->nodes[0].master = 2;
  view->nodes[0].failed = true;
  share();
  EXPECT_EQ(to_string(call({"SET", "bar", "2"}).reply), to_string(Reply::ok()));
  EXPECT_EQ(to_string(run(replica, {"GET", "bar"})), to_string(B("2")));
  EXPECT_EQ(port.node_for_slot(5061), 2u);
}

// A transaction's commands go only on the connection its WATCH ran on (call_on_connection): after a failover
// the command is not re-sent where the refreshed map points (no MULTI is open there: the write would run at
// once), nor after a redirect.
TEST_F(ClusterPortTest, ACommandOnAConnectionIsNotRetriedAfterAFailover) {
  call({"SET", "bar", "1"});
  const std::uint64_t epoch = port.connection_epoch(0);
  nodes.set_down(0);
  for (int slot = 0; slot < 8192; ++slot) view->slot_owner[static_cast<std::size_t>(slot)] = 2;
  view->nodes[2].master = -1;
  view->nodes[0].master = 2;
  view->nodes[0].failed = true;
  share();
  const CallResult result = run_sync(port.call_on_connection(0, epoch, {"SET", "bar", "2"}));
  EXPECT_EQ(result.status, CallStatus::not_sent) << result.detail;
  EXPECT_NE(to_string(run(replica, {"GET", "bar"})), to_string(B("2"))) << "the write ran at the promoted replica";
}

TEST_F(ClusterPortTest, ACommandOnAConnectionDoesNotFollowARedirect) {
  call({"SET", "bar", "1"});  // slot 5061: node 0
  const std::uint64_t epoch = port.connection_epoch(0);
  view->slot_owner[5061] = 1;  // the slot moves behind the client's back: node 0 answers MOVED
  share();
  const CallResult result = run_sync(port.call_on_connection(0, epoch, {"SET", "bar", "2"}));
  EXPECT_TRUE(!result.replied() || result.reply.is_error()) << to_string(result.reply);
  EXPECT_EQ(to_string(run(node1, {"GET", "bar"})), to_string(Reply::nil())) << "the write followed the redirect";
}

TEST_F(ClusterPortTest, ACommandOnAConnectionGoesWhereTheEpochWasTaken) {
  call({"SET", "bar", "1"});  // slot 5061: node 0
  const std::uint64_t epoch = port.connection_epoch(0);
  // foo hashes to node 1: another connection than the epoch's
  const CallResult result = run_sync(port.call_on_connection(0, epoch, {"SET", "foo", "2"}));
  EXPECT_EQ(result.status, CallStatus::not_sent) << to_string(result.reply);
  EXPECT_EQ(to_string(run(node1, {"GET", "foo"})), to_string(Reply::nil()));
}

TEST_F(ClusterPortTest, OnlyNodeZero) {
  EXPECT_EQ(run_sync(port.call(1, {"PING"})).status, CallStatus::not_sent);
  EXPECT_EQ(port.node_count(), 1u);
}

}  // namespace
}  // namespace lockcheck::mock::testing
