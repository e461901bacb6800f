// Cluster mode of the mock: hash slots, redirects, CROSSSLOT, script key checks and the CLUSTER replies,
// each expectation observed on a two-master redis-server 7.0.15 cluster (slots 0-8191 and 8192-16383).
#include <gtest/gtest.h>

#include "lockcheck/key_slot.hpp"
#include "cluster_test_support.hpp"

namespace lockcheck::mock::testing {
namespace {

#define EXPECT_REPLY(actual, expected) EXPECT_EQ(to_string(actual), to_string(expected)) << "reply kinds must match too"

TEST(KeySlot, MatchesRedisKeyslot) {
  EXPECT_EQ(crc16_xmodem("123456789"), 0x31C3);  // the CRC16/XMODEM check value
  // CLUSTER KEYSLOT on redis-server 7.0.15.
  EXPECT_EQ(key_hash_slot("foo"), 12182);
  EXPECT_EQ(key_hash_slot("bar"), 5061);
  EXPECT_EQ(key_hash_slot("hello"), 866);
  EXPECT_EQ(key_hash_slot("somekey"), 11058);
  EXPECT_EQ(key_hash_slot("123456789"), 12739);
  EXPECT_EQ(key_hash_slot("lock"), 8718);
  EXPECT_EQ(key_hash_slot("lock:write"), 12357);
  EXPECT_EQ(key_hash_slot("{user1000}.following"), 3443);
  EXPECT_EQ(key_hash_slot("user1000"), 3443);
  EXPECT_EQ(key_hash_slot("{lock}:read"), 8718);
  EXPECT_EQ(key_hash_slot("{}abc"), 5980);    // an empty tag hashes the whole key
  EXPECT_EQ(key_hash_slot("a{}b{c}"), 7353);  // only the first '{' counts
  EXPECT_EQ(key_hash_slot("{a"), 10276);      // no closing brace: the whole key
}

TEST(KeySlot, CommandKeys) {
  EXPECT_EQ(command_slot({"PING"}), std::nullopt);
  EXPECT_EQ(command_slot({"SET", "foo", "v", "PX", "100"}), 12182);
  EXPECT_EQ(command_slot({"DEL", "{u}a", "{u}b"}), key_hash_slot("u"));
  EXPECT_EQ(command_slot({"DEL", "foo", "bar"}), kCrossSlot);
  EXPECT_EQ(command_slot({"EVALSHA", "abc", "2", "foo", "{foo}x", "bar"}), 12182);  // ARGV never counts
  EXPECT_EQ(command_slot({"EVAL", "return 1", "0", "foo"}), std::nullopt);
  EXPECT_EQ(command_slot({"eval", "return 1", "2", "foo", "bar"}), kCrossSlot);
  EXPECT_EQ(command_slot({"MSET", "foo", "bar", "{foo}1", "x"}), 12182);  // values are not keys
  EXPECT_EQ(command_slot({"EVAL", "return 1", "x"}), std::nullopt);      // bad numkeys: no keys
}

class Cluster : public ::testing::Test, public TwoShards {};

TEST_F(Cluster, RedirectsAndCrossSlot) {
  EXPECT_REPLY(run(node0, {"set", "foo", "1"}), E("MOVED 12182 127.0.0.1:30002"));
  EXPECT_REPLY(run(node0, {"set", "bar", "1"}), S("OK"));
  EXPECT_REPLY(run(node0, {"del", "bar", "{bar}x"}), I(1));
  EXPECT_REPLY(run(node0, {"del", "bar", "x"}), E("CROSSSLOT Keys in request don't hash to the same slot"));
  EXPECT_REPLY(run(node0, {"eval", "return 1", "2", "bar", "x"}), E("CROSSSLOT Keys in request don't hash to the same slot"));
  EXPECT_REPLY(run(node1, {"eval", "return 1", "1", "bar"}), E("MOVED 5061 127.0.0.1:30001"));
  EXPECT_REPLY(run(node1, {"ping"}), S("PONG"));  // keyless commands run anywhere
  // A replica redirects to its master unless the connection is READONLY, and then only reads.
  EXPECT_REPLY(run(replica, {"get", "bar"}), E("MOVED 5061 127.0.0.1:30001"));
  EXPECT_REPLY(run(replica, {"readonly"}), S("OK"));
  EXPECT_REPLY(run(replica, {"get", "bar"}), N());
  EXPECT_REPLY(run(replica, {"set", "bar", "1"}), E("MOVED 5061 127.0.0.1:30001"));
  EXPECT_REPLY(run(replica, {"get", "foo"}), E("MOVED 12182 127.0.0.1:30002"));
}

TEST_F(Cluster, ScriptsMayOnlyTouchLocalKeys) {
  const std::string non_local = "ERR Script attempted to access a non local key in a cluster node script: ";
  Reply reply = run(node0, {"eval", "return redis.call('get','foo')", "0"});
  EXPECT_EQ(reply.text.rfind(non_local, 0), 0u) << reply.text;
  reply = run(node0, {"eval", "return redis.call('get','x')", "1", "bar"});
  EXPECT_EQ(reply.text.rfind(non_local, 0), 0u) << reply.text;
  reply = run(node0, {"eval", "return redis.call('del','bar','x')", "1", "bar"});
  EXPECT_EQ(reply.text.rfind(non_local, 0), 0u) << reply.text;
  // An undeclared key in another slot this node serves is allowed on 7.0.
  EXPECT_REPLY(run(node0, {"eval", "return redis.call('get','hello')", "1", "bar"}), N());
  EXPECT_REPLY(run(node0, {"eval", "redis.call('set','{bar}y','1') return redis.call('get','{bar}y')", "0"}), B("1"));
}

TEST_F(Cluster, AskDuringMigration) {
  EXPECT_REPLY(run(node0, {"set", "bar", "here"}), S("OK"));
  view->migrating[5061] = 1;
  view->importing[5061] = 0;
  EXPECT_REPLY(run(node0, {"get", "bar"}), B("here"));  // still here: served here
  EXPECT_REPLY(run(node0, {"get", "{bar}zz"}), E("ASK 5061 127.0.0.1:30002"));
  EXPECT_REPLY(run(node0, {"eval", "return 1", "1", "{bar}q"}), E("ASK 5061 127.0.0.1:30002"));
  Reply reply = run(node0, {"eval", "return redis.call('get','{bar}q')", "0"});
  EXPECT_EQ(reply.text.rfind("ERR Script attempted to access a non local key", 0), 0u) << reply.text;
  // Some keys here, some gone: TRYAGAIN (redis-server 7.0.15: "del bar {bar}zz" on the migrating node).
  EXPECT_REPLY(run(node0, {"del", "bar", "{bar}zz"}), E("TRYAGAIN Multiple keys request during rehashing of slot"));
  EXPECT_REPLY(run(node1, {"asking"}), S("OK"));
  EXPECT_REPLY(run(node1, {"del", "{bar}1", "{bar}zz"}), E("TRYAGAIN Multiple keys request during rehashing of slot"));
  EXPECT_REPLY(run(node1, {"get", "{bar}zz"}), E("MOVED 5061 127.0.0.1:30001"));
  EXPECT_REPLY(run(node1, {"asking"}), S("OK"));
  EXPECT_REPLY(run(node1, {"get", "{bar}zz"}), N());  // ASKING admits exactly one command
  EXPECT_REPLY(run(node1, {"get", "{bar}zz"}), E("MOVED 5061 127.0.0.1:30001"));
  EXPECT_NE(to_string(run(node0, {"cluster", "nodes"})).find("[5061->-" + std::string(40, 'b') + "]"), std::string::npos);
  EXPECT_NE(to_string(run(node1, {"cluster", "nodes"})).find("[5061-<-" + std::string(40, 'a') + "]"), std::string::npos);
}

TEST_F(Cluster, DownRefusesKeyedCommands) {
  auto down = std::make_shared<ClusterView>(*view);
  down->state_ok = false;
  node0.set_cluster_view(down, 0);
  EXPECT_REPLY(run(node0, {"set", "bar", "1"}), E("CLUSTERDOWN The cluster is down"));
  EXPECT_REPLY(run(node0, {"ping"}), S("PONG"));
  EXPECT_NE(to_string(run(node0, {"cluster", "info"})).find("cluster_state:fail"), std::string::npos);
}

// HELLO's mode is "cluster" on a cluster node, and its role a replica's (redis-server 7.0.15 --cluster-enabled yes).
TEST_F(Cluster, HelloSaysClusterMode) {
  const Reply hello = run(replica, {"hello", "2"});
  ASSERT_EQ(hello.elements.size(), 14u);
  EXPECT_REPLY(hello.elements[8], B("mode"));
  EXPECT_REPLY(hello.elements[9], B("cluster"));
}

TEST_F(Cluster, ClusterReplies) {
  EXPECT_REPLY(run(node0, {"cluster", "keyslot", "foo"}), I(12182));
  EXPECT_REPLY(run(node0, {"cluster", "keyslot"}), E("ERR wrong number of arguments for 'cluster|keyslot' command"));
  EXPECT_REPLY(run(node0, {"cluster", "foo"}), E("ERR unknown subcommand 'foo'. Try CLUSTER HELP."));
  EXPECT_REPLY(run(node1, {"cluster", "myid"}), B(std::string(40, 'b')));
  EXPECT_REPLY(run(node0, {"cluster", "myid", "x"}), E("ERR wrong number of arguments for 'cluster|myid' command"));
  const Reply a = A({B("127.0.0.1"), I(30001), B(std::string(40, 'a')), A({})});
  const Reply b = A({B("127.0.0.1"), I(30002), B(std::string(40, 'b')), A({})});
  const Reply c = A({B("127.0.0.1"), I(30003), B(std::string(40, 'c')), A({})});
  EXPECT_REPLY(run(node0, {"cluster", "slots"}), A({A({I(0), I(8191), a, c}), A({I(8192), I(16383), b})}));
  const Reply shards = run(node0, {"cluster", "shards"});
  ASSERT_EQ(shards.elements.size(), 2u);
  EXPECT_REPLY(shards.elements[1],
               A({B("slots"), A({I(8192), I(16383)}), B("nodes"),
                  A({A({B("id"), B(std::string(40, 'b')), B("port"), I(30002), B("ip"), B("127.0.0.1"), B("endpoint"),
                        B("127.0.0.1"), B("role"), B("master"), B("replication-offset"), I(0), B("health"), B("online")})})}));
  EXPECT_REPLY(run(node0, {"cluster", "nodes"}),
               B(std::string(40, 'a') + " 127.0.0.1:30001@40001 myself,master - 0 0 1 connected 0-8191\n" +
                 std::string(40, 'b') + " 127.0.0.1:30002@40002 master - 0 0 2 connected 8192-16383\n" +
                 std::string(40, 'c') + " 127.0.0.1:30003@40003 slave " + std::string(40, 'a') + " 0 0 1 connected\n"));
  const std::string info = run(node1, {"cluster", "info"}).text;
  EXPECT_EQ(info.rfind("cluster_state:ok\r\ncluster_slots_assigned:16384\r\ncluster_slots_ok:16384\r\n", 0), 0u) << info;
  EXPECT_NE(info.find("cluster_known_nodes:3\r\ncluster_size:2\r\ncluster_current_epoch:2\r\ncluster_my_epoch:2\r\n"),
            std::string::npos)
      << info;
  run(node0, {"set", "bar", "1"});
  run(node0, {"set", "{bar}2", "1"});
  EXPECT_REPLY(run(node0, {"cluster", "countkeysinslot", "5061"}), I(2));
  EXPECT_REPLY(run(node0, {"cluster", "getkeysinslot", "5061", "1"}), A({B("bar")}));
  EXPECT_REPLY(run(node0, {"cluster", "countkeysinslot", "-1"}), E("ERR Invalid slot"));
  EXPECT_REPLY(run(node0, {"cluster", "getkeysinslot", "1", "-1"}), E("ERR Invalid slot or number of keys"));
  EXPECT_REPLY(run(node0, {"cluster", "countkeysinslot", "x"}), E("ERR value is not an integer or out of range"));
}

TEST(ClusterDisabled, StandaloneNodeRefuses) {
  MockFixture fixture;
  EXPECT_REPLY(fixture.run({"cluster", "keyslot", "foo"}), E("ERR This instance has cluster support disabled"));
  EXPECT_REPLY(fixture.run({"cluster", "info"}), E("ERR This instance has cluster support disabled"));
  EXPECT_REPLY(fixture.run({"asking"}), E("ERR This instance has cluster support disabled"));
  EXPECT_REPLY(fixture.run({"set", "foo", "1"}), S("OK"));
}

}  // namespace
}  // namespace lockcheck::mock::testing
