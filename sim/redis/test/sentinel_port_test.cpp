// The library's SentinelPort against mock nodes and mock sentinels (sentinel.hpp): discovery with
// SENTINEL GET-MASTER-ADDR-BY-NAME confirmed by ROLE, a retry at the new master after -READONLY or an
// unreachable node, no retry of a command that may have run, and bounded lookups.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "lockcheck/sentinel_port.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/server/node.hpp"
#include "redis/topology/sentinel.hpp"

namespace lockcheck::mock {
namespace {

// Endpoints 0 and 1 are the nodes, 2 and 3 the sentinels (each with its own knowledge); an endpoint can be
// set unreachable (not_sent) or silent (unknown, after the command ran).
class Deployment final : public Port {
 public:
  Deployment() {
    for (int k = 0; k < 2; ++k) {
      SentinelKnowledge known;
      known.sentinels = {{"127.0.0.1", 26379, "s0"}, {"127.0.0.1", 26380, "s1"}};
      known.myself = static_cast<std::size_t>(k);
      sentinels[k] = known;
    }
    point_sentinels_at(0);
  }
  std::size_t node_count() const override { return 4; }
  Task<CallResult> call(std::size_t endpoint, Command command) override {
    sent_to.push_back(endpoint);
    if (unreachable[endpoint]) co_return CallResult::failed(CallStatus::not_sent, "connection refused");
    Reply reply = endpoint < 2 ? nodes[endpoint]->execute(command, sessions[endpoint])
                               : sentinel_execute(sentinels[endpoint - 2], command);
    if (silent[endpoint]) co_return CallResult::failed(CallStatus::unknown, "timed out");
    co_return CallResult::of(std::move(reply));
  }
  // Node `master` is the master, the other its replica; both sentinels name it.
  void promote(std::size_t master) {
    const std::size_t replica = 1 - master;
    nodes[master]->set_replication_info({});
    nodes[master]->set_write_refusal("");
    nodes[replica]->set_replication_info({.role = "slave", .connected_slaves = 0, .extra_lines = "", .master_host = "127.0.0.1", .master_port = 6379 + static_cast<int>(master)});
    nodes[replica]->set_write_refusal(std::string(err::kReadonlyReplica));
    point_sentinels_at(master);
  }
  void point_sentinels_at(std::size_t master) {
    for (auto& known : sentinels) known.master = {"127.0.0.1", 6379 + static_cast<int>(master), "m"};
  }

  std::int64_t now_ms = 1'700'000'000'000;
  std::unique_ptr<Node> nodes[2] = {std::make_unique<Node>(NodeOptions{.clock = [this] { return now_ms; }}),
                                    std::make_unique<Node>(NodeOptions{.clock = [this] { return now_ms; }})};
  Session sessions[2] = {Session{.client_id = 1}, Session{.client_id = 2}};
  SentinelKnowledge sentinels[2];
  bool unreachable[4] = {false, false, false, false};
  bool silent[4] = {false, false, false, false};
  std::vector<std::size_t> sent_to;
};

class SentinelPortTest : public ::testing::Test {
 protected:
  void SetUp() override { deployment.promote(0); }
  CallResult call(Command command) { return run_sync(port.call(0, std::move(command))); }

  Deployment deployment;
  SentinelPort port{deployment, {"127.0.0.1:6379", "127.0.0.1:6380", "127.0.0.1:26379", "127.0.0.1:26380"}, {2, 3}, "mymaster"};
};

TEST_F(SentinelPortTest, AsksASentinelThenConfirmsWithRole) {
  EXPECT_EQ(call({"SET", "lock", "a"}).reply, Reply::ok());
  EXPECT_EQ(deployment.sent_to, (std::vector<std::size_t>{2, 0, 0}));
  EXPECT_EQ(port.known_master(), 0u);
  deployment.sent_to.clear();
  EXPECT_EQ(call({"GET", "lock"}).reply, Reply::bulk("a"));
  EXPECT_EQ(deployment.sent_to, (std::vector<std::size_t>{0})) << "the master is remembered";
}

TEST_F(SentinelPortTest, FirstSentinelDownAsksTheNext) {
  deployment.unreachable[2] = true;
  EXPECT_EQ(call({"SET", "lock", "a"}).reply, Reply::ok());
  EXPECT_EQ(deployment.sent_to, (std::vector<std::size_t>{2, 3, 0, 0}));
}

TEST_F(SentinelPortTest, ASentinelNamingAReplicaIsNotBelieved) {
  deployment.sentinels[0].master = {"127.0.0.1", 6380, "r"};  // sentinel 0 is behind: it names the replica
  EXPECT_EQ(call({"SET", "lock", "a"}).reply, Reply::ok());
  EXPECT_EQ(port.known_master(), 0u);
  EXPECT_EQ(deployment.sent_to, (std::vector<std::size_t>{2, 1, 3, 0, 0}));
}

TEST_F(SentinelPortTest, ReadonlyAfterAFailoverAsksAgainAndRetriesAtTheNewMaster) {
  ASSERT_EQ(call({"SET", "lock", "a"}).reply, Reply::ok());
  deployment.promote(1);  // node 0 is demoted: it answers writes with READONLY
  const CallResult result = call({"SET", "lock", "b"});
  EXPECT_EQ(result.reply, Reply::ok());
  EXPECT_EQ(port.known_master(), 1u);
  EXPECT_EQ(run_sync(deployment.call(1, {"GET", "lock"})).reply, Reply::bulk("b"));
}

TEST_F(SentinelPortTest, UnreachableMasterIsLookedUpAgain) {
  ASSERT_EQ(call({"SET", "lock", "a"}).reply, Reply::ok());
  deployment.unreachable[0] = true;
  deployment.promote(1);
  EXPECT_EQ(call({"SET", "lock", "b"}).reply, Reply::ok());
  EXPECT_EQ(port.known_master(), 1u);
}

TEST_F(SentinelPortTest, ACommandThatMayHaveRunIsNotRetried) {
  ASSERT_EQ(call({"SET", "lock", "a"}).reply, Reply::ok());
  deployment.silent[0] = true;
  deployment.sent_to.clear();
  EXPECT_EQ(call({"INCR", "n"}).status, CallStatus::unknown);
  EXPECT_EQ(deployment.sent_to, (std::vector<std::size_t>{0}));
  EXPECT_EQ(port.known_master(), std::nullopt) << "the next command asks the sentinels first";
}

TEST_F(SentinelPortTest, LookupsAreBounded) {
  deployment.point_sentinels_at(1);  // both name node 1, which says master but refuses every write
  deployment.nodes[1]->set_replication_info({});
  deployment.nodes[1]->set_write_refusal("LOADING Redis is loading the dataset in memory");
  const CallResult result = call({"SET", "lock", "a"});
  // Nothing ran: the lock's own retry and backoff apply (an error reply would stop its client).
  EXPECT_EQ(result.status, CallStatus::not_sent);
  EXPECT_NE(result.detail.find("LOADING"), std::string::npos) << result.detail;
  EXPECT_LE(deployment.sent_to.size(), 4u * 3u) << "at most 1 + max_rediscoveries lookups";
}

// A master short of good replicas (min-replicas-to-write) refuses a write before running it: a split-brain's
// old master does this to the clients on its side. Nothing ran, so the lock retries after its backoff.
TEST_F(SentinelPortTest, NoReplicasIsNotSent) {
  ASSERT_EQ(call({"SET", "lock", "a"}).reply, Reply::ok());
  deployment.nodes[0]->set_write_refusal("NOREPLICAS Not enough good replicas to write.");
  const CallResult result = call({"SET", "lock", "b"});
  EXPECT_EQ(result.status, CallStatus::not_sent);
  EXPECT_NE(result.detail.find("NOREPLICAS"), std::string::npos) << result.detail;
}

// A transaction's commands go only on the connection its WATCH ran on (call_on_connection). When that master
// is gone, the command must not be re-sent at the new master the sentinels name: there no MULTI is open, so
// the write would run at once, outside the transaction and unconditioned by the WATCH.
TEST_F(SentinelPortTest, ACommandOnAConnectionIsNotRetriedAtANewMaster) {
  ASSERT_EQ(call({"SET", "lock", "a"}).reply, Reply::ok());
  const std::uint64_t epoch = port.connection_epoch(0);
  deployment.unreachable[0] = true;
  deployment.promote(1);
  deployment.sent_to.clear();
  const CallResult result = run_sync(port.call_on_connection(0, epoch, {"SET", "lock", "b"}));
  EXPECT_EQ(result.status, CallStatus::not_sent) << result.detail;
  EXPECT_NE(run_sync(deployment.call(1, {"GET", "lock"})).reply, Reply::bulk("b")) << "the write ran at the new master";
}

TEST_F(SentinelPortTest, ACommandOnAConnectionIsNotRetriedAfterReadonly) {
  ASSERT_EQ(call({"SET", "lock", "a"}).reply, Reply::ok());
  const std::uint64_t epoch = port.connection_epoch(0);
  deployment.promote(1);  // node 0 answers READONLY: the port would look the master up again
  const CallResult result = run_sync(port.call_on_connection(0, epoch, {"SET", "lock", "b"}));
  EXPECT_TRUE(!result.replied() || result.reply.is_error()) << "not refused: " << result.detail;
  EXPECT_NE(run_sync(deployment.call(1, {"GET", "lock"})).reply, Reply::bulk("b")) << "the write ran at the new master";
}

// The master every sentinel names does not answer (the client is cut off from the data nodes, the sentinels are
// reachable): each ask of it costs a whole command timeout, so one call asks it once, not once per sentinel and
// lookup (it was asked 8 times: 2 sentinels x 4 lookups; lockcheck judge killed the Mutex adapter as hung).
TEST_F(SentinelPortTest, AnUnreachableMasterIsAskedOncePerCall) {
  deployment.unreachable[0] = true;
  const CallResult result = call({"SET", "lock", "a"});
  EXPECT_EQ(result.status, CallStatus::not_sent);
  EXPECT_EQ(std::count(deployment.sent_to.begin(), deployment.sent_to.end(), 0u), 1) << "asks of the master";
}

TEST_F(SentinelPortTest, NoSentinelAnswersIsNotSent) {
  deployment.unreachable[2] = deployment.unreachable[3] = true;
  const CallResult result = call({"SET", "lock", "a"});
  EXPECT_EQ(result.status, CallStatus::not_sent);
  EXPECT_NE(result.detail.find("mymaster"), std::string::npos);
}

}  // namespace
}  // namespace lockcheck::mock
