// ClusterPort over HiredisPort against a real two-master Redis Cluster (redis-server --cluster-enabled yes on
// free loopback ports, slots assigned with CLUSTER ADDSLOTSRANGE, joined with CLUSTER MEET; stopped by pid).
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <thread>

#include "lockcheck/client.hpp"
#include "lockcheck/cluster_port.hpp"
#include "lockcheck/hiredis_port.hpp"
#include "lockcheck/key_slot.hpp"
#include "lock_testing.hpp"
#include "redis_server.hpp"

namespace lockcheck {
namespace {

using namespace std::chrono_literals;

class RealCluster : public ::testing::Test {
 protected:
  void SetUp() override {
    for (int i = 0; i < 2; ++i) {
      servers.push_back(std::make_unique<testing::RedisServer>(
          std::vector<std::string>{"--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"}));
      nodes.push_back({.host = servers.back()->host(), .port = servers.back()->port()});
      addresses.push_back(servers.back()->host() + ":" + std::to_string(servers.back()->port()));
    }
    direct = std::make_unique<HiredisPort>(nodes);
    ASSERT_FALSE(on(0, {"CLUSTER", "ADDSLOTSRANGE", "0", "8191"}).is_error());
    ASSERT_FALSE(on(1, {"CLUSTER", "ADDSLOTSRANGE", "8192", "16383"}).is_error());
    ASSERT_FALSE(on(0, {"CLUSTER", "MEET", servers[1]->host(), std::to_string(servers[1]->port())}).is_error());
    // Gossip takes a moment: wait (bounded, wide margin) until both nodes see every slot served.
    for (int round = 0; round < 200 && !(ready(0) && ready(1)); ++round) std::this_thread::sleep_for(50ms);
    ASSERT_TRUE(ready(0) && ready(1)) << "the cluster did not form within 10 s";
  }
  Reply on(std::size_t node, Command command) { return run_sync(direct->call(node, std::move(command))).reply; }
  bool ready(std::size_t node) {
    const Reply slots = on(node, {"CLUSTER", "SLOTS"});
    return on(node, {"CLUSTER", "INFO"}).text.find("cluster_state:ok") != std::string::npos &&
           slots.elements.size() == 2;
  }

  std::vector<std::unique_ptr<testing::RedisServer>> servers;
  std::vector<ConnectionOptions> nodes;
  std::vector<std::string> addresses;
  std::unique_ptr<HiredisPort> direct;
};

TEST_F(RealCluster, RoutesFollowsMovedAndAsk) {
  HiredisPort connections(nodes);
  SystemClock clock;
  ClusterPort cluster(connections, clock, addresses);
  EXPECT_EQ(run_sync(cluster.call(0, {"SET", "foo", "1"})).reply, Reply::ok());  // slot 12182: node 1
  EXPECT_EQ(run_sync(cluster.call(0, {"SET", "bar", "2"})).reply, Reply::ok());  // slot 5061: node 0
  EXPECT_EQ(on(1, {"GET", "foo"}), Reply::bulk("1"));
  EXPECT_EQ(on(0, {"GET", "bar"}), Reply::bulk("2"));
  EXPECT_EQ(run_sync(cluster.call(0, {"DEL", "foo", "bar"})).reply.error_code(), "CROSSSLOT");

  // Slot 5061 starts moving to node 1: a key not yet there is asked for at node 1 (ASK + ASKING).
  const std::string id0 = on(0, {"CLUSTER", "MYID"}).text, id1 = on(1, {"CLUSTER", "MYID"}).text;
  ASSERT_FALSE(on(1, {"CLUSTER", "SETSLOT", "5061", "IMPORTING", id0}).is_error());
  ASSERT_FALSE(on(0, {"CLUSTER", "SETSLOT", "5061", "MIGRATING", id1}).is_error());
  EXPECT_EQ(run_sync(cluster.call(0, {"SET", "{bar}new", "3"})).reply, Reply::ok());
  EXPECT_EQ(run_sync(cluster.call(0, {"GET", "bar"})).reply, Reply::bulk("2")) << "still on node 0: served there";
  // MIGRATE the old key, then hand the slot over: MOVED from node 0 updates the client's map.
  ASSERT_FALSE(on(0, {"MIGRATE", servers[1]->host(), std::to_string(servers[1]->port()), "bar", "0", "5000"}).is_error());
  ASSERT_FALSE(on(1, {"CLUSTER", "SETSLOT", "5061", "NODE", id1}).is_error());
  ASSERT_FALSE(on(0, {"CLUSTER", "SETSLOT", "5061", "NODE", id1}).is_error());
  EXPECT_EQ(run_sync(cluster.call(0, {"GET", "bar"})).reply, Reply::bulk("2"));
  EXPECT_EQ(cluster.node_for_slot(5061), 1u);
  EXPECT_EQ(run_sync(cluster.call(0, {"GET", "{bar}new"})).reply, Reply::bulk("3"));
}

TEST_F(RealCluster, ClusterSlotsHaveTheShapeTheMockGives) {
  // The shape the ClusterPort parses: [first, last, [host, port, id, []]] per range, ordered by slot here.
  const Reply slots = on(0, {"CLUSTER", "SLOTS"});
  ASSERT_EQ(slots.elements.size(), 2u);
  for (const Reply& range : slots.elements) {
    ASSERT_GE(range.elements.size(), 3u);
    EXPECT_EQ(range.elements[2].elements.size(), 4u);
    EXPECT_EQ(range.elements[2].elements[3].kind, Reply::Kind::array);
  }
  EXPECT_EQ(on(0, {"CLUSTER", "KEYSLOT", "{user1000}.following"}), Reply::integer_reply(key_hash_slot("user1000")));
}

// Shard channels: ClusterPort SSUBSCRIBEs at the node serving the channel's slot, and an SPUBLISH there (as
// redisson-like's release script sends it, in the lock key's slot) reaches the waiter; the other node has no
// subscriber, and the hash tag puts the channel in the key's slot.
TEST_F(RealCluster, ShardChannelOfALockKeyIsSubscribedAndDeliveredOnItsShard) {
  HiredisPort connections(nodes);
  SystemClock clock;
  ClusterPort cluster(connections, clock, addresses);
  ASSERT_TRUE(cluster.shard_channels());
  const std::string channel = "lockcheck:released:{foo}";  // "foo": slot 12182, node 1
  ASSERT_EQ(key_hash_slot(channel), key_hash_slot("foo"));
  const CallResult subscribed = run_sync(cluster.subscribe(0, channel));
  ASSERT_TRUE(subscribed.replied() && !subscribed.reply.is_error()) << subscribed.detail;
  EXPECT_EQ(on(1, {"PUBSUB", "SHARDNUMSUB", channel}).elements.at(1), Reply::integer_reply(1));
  EXPECT_EQ(on(0, {"PUBSUB", "SHARDNUMSUB", channel}).elements.at(1), Reply::integer_reply(0));
  EXPECT_EQ(run_sync(cluster.call(0, {"SPUBLISH", channel, "released"})).reply, Reply::integer_reply(1));
  const CallResult message = run_sync(cluster.await_message(0, channel, Micros(5'000'000)));
  ASSERT_TRUE(message.replied()) << message.detail;
  EXPECT_EQ(message.reply, Reply::bulk("released"));
}

// The public API on a cluster: a Client given every node locks on the master of the key's slot, and a second
// Client sees the lock held there (lockcheck_judge_mutex, explore --client's reference on a [cluster], is this).
TEST_F(RealCluster, AMutexOfAClusterClientLocksOnTheKeysMaster) {
  Client client(ClusterNodes{nodes});
  Client other(ClusterNodes{nodes});
  testing::expect_one_holder_at_a_time(client, other, "foo", [&](Command command) { return on(1, std::move(command)); });  // slot 12182
  EXPECT_THROW(Client(ClusterNodes{}), InvalidArgument);
}

}  // namespace
}  // namespace lockcheck
