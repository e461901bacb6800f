// What a Sentinel deployment needs of the mock: ROLE, writes refused on a replica (READONLY) or on a master
// short of good replicas (NOREPLICAS), and the sentinels' own replies. Each expectation was observed on
// redis-server / redis-sentinel 7.0.15 (a master, a replica, one sentinel monitoring "mymaster").
#include <gtest/gtest.h>

#include "lockcheck/sha1.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/server/node.hpp"
#include "redis/topology/sentinel.hpp"

namespace lockcheck::mock {
namespace {

#define EXPECT_REPLY(actual, expected) EXPECT_EQ(to_string(actual), to_string(expected)) << "reply kinds must match too"

class ReplicaRoles : public ::testing::Test {
 protected:
  Reply run(Command command) { return node.execute(command, session); }
  Node node{NodeOptions{.clock = [] { return std::int64_t{1'700'000'000'000}; }}};
  Session session{.client_id = 7};
};

TEST_F(ReplicaRoles, RoleOfAMasterAndOfAReplica) {
  EXPECT_REPLY(run({"ROLE"}), Reply::array({Reply::bulk("master"), Reply::integer_reply(0), Reply::array({})}));
  node.set_replication_info({.role = "slave", .connected_slaves = 0, .extra_lines = "", .master_host = "127.0.0.1", .master_port = 6379});
  EXPECT_REPLY(run({"ROLE"}), Reply::array({Reply::bulk("slave"), Reply::bulk("127.0.0.1"), Reply::integer_reply(6379),
                                            Reply::bulk("connected"), Reply::integer_reply(0)}));
  EXPECT_REPLY(run({"EVAL", "return redis.call('ROLE')", "0"}),
               Reply::error("ERR This Redis command is not allowed from script script: " +
                            sha1_hex("return redis.call('ROLE')") + ", on @user_script:1."));
}

TEST_F(ReplicaRoles, AReadOnlyReplicaRefusesWritesEvenInScriptsAndTransactions) {
  ASSERT_EQ(run({"SET", "a", "1"}), Reply::ok());
  node.set_write_refusal(std::string(err::kReadonlyReplica));
  EXPECT_REPLY(run({"SET", "a", "2"}), Reply::error("READONLY You can't write against a read only replica."));
  EXPECT_REPLY(run({"GET", "a"}), Reply::bulk("1"));
  const std::string script = "return redis.call('set','a','b')";
  EXPECT_REPLY(run({"EVAL", script, "0"}), Reply::error("READONLY You can't write against a read only replica. script: " +
                                                         sha1_hex(script) + ", on @user_script:1."));
  EXPECT_REPLY(run({"EVAL", "return redis.call('get','a')", "0"}), Reply::bulk("1"));
  EXPECT_REPLY(run({"MULTI"}), Reply::ok());
  EXPECT_REPLY(run({"DEL", "a"}), Reply::error("READONLY You can't write against a read only replica."));
  EXPECT_REPLY(run({"EXEC"}), Reply::error("EXECABORT Transaction discarded because of previous errors."));
}

TEST_F(ReplicaRoles, AMasterShortOfGoodReplicasRefusesWrites) {
  node.set_write_refusal(std::string(err::kNoReplicas));
  EXPECT_REPLY(run({"SET", "a", "b"}), Reply::error("NOREPLICAS Not enough good replicas to write."));
  const std::string script = "return redis.call('set','a','b')";
  EXPECT_REPLY(run({"EVAL", script, "0"}), Reply::error("NOREPLICAS Not enough good replicas to write. script: " +
                                                         sha1_hex(script) + ", on @user_script:1."));
  node.set_write_refusal("");
  EXPECT_REPLY(run({"SET", "a", "b"}), Reply::ok());
}

SentinelKnowledge monitoring() {
  SentinelKnowledge known;
  known.master = {"127.0.0.1", 27411, "m"};
  known.replicas = {{"127.0.0.1", 27413, "r"}};
  known.sentinels = {{"127.0.0.1", 27412, "s0"}};
  return known;
}

TEST(Sentinel, GetMasterAddrByName) {
  const SentinelKnowledge known = monitoring();
  EXPECT_REPLY(sentinel_execute(known, {"SENTINEL", "get-master-addr-by-name", "mymaster"}),
               Reply::array({Reply::bulk("127.0.0.1"), Reply::bulk("27411")}));
  EXPECT_REPLY(sentinel_execute(known, {"sentinel", "GET-MASTER-ADDR-BY-NAME", "nope"}), Reply::null_array());
  EXPECT_REPLY(sentinel_execute(known, {"SENTINEL", "get-master-addr-by-name"}),
               Reply::error("ERR wrong number of arguments for 'sentinel|get-master-addr-by-name' command"));
}

TEST(Sentinel, ErrorsAsRedisSentinelGivesThem) {
  const SentinelKnowledge known = monitoring();
  EXPECT_REPLY(sentinel_execute(known, {"SENTINEL", "master", "nope"}), Reply::error("ERR No such master with that name"));
  EXPECT_REPLY(sentinel_execute(known, {"SENTINEL", "bogus"}), Reply::error("ERR unknown subcommand 'bogus'. Try SENTINEL HELP."));
  EXPECT_REPLY(sentinel_execute(known, {"GET", "x"}), Reply::error("ERR unknown command 'GET', with args beginning with: 'x' "));
  EXPECT_REPLY(sentinel_execute(known, {"PING"}), Reply::status("PONG"));
  EXPECT_REPLY(sentinel_execute(known, {"ROLE"}), Reply::array({Reply::bulk("sentinel"), Reply::array({Reply::bulk("mymaster")})}));
}

TEST(Sentinel, MastersReplicasAndSentinels) {
  const SentinelKnowledge known = monitoring();
  const Reply masters = sentinel_execute(known, {"SENTINEL", "masters"});
  ASSERT_EQ(masters.elements.size(), 1u);
  const Reply& master = masters.elements[0];
  ASSERT_GE(master.elements.size(), 10u);
  EXPECT_EQ(master.elements[0].text, "name");
  EXPECT_EQ(master.elements[1].text, "mymaster");
  EXPECT_EQ(master.elements[2].text, "ip");
  EXPECT_EQ(master.elements[4].text, "port");
  EXPECT_EQ(master.elements[5].text, "27411");
  EXPECT_EQ(master.elements[8].text, "flags");
  EXPECT_EQ(master.elements[9].text, "master");
  const Reply replicas = sentinel_execute(known, {"SENTINEL", "replicas", "mymaster"});
  ASSERT_EQ(replicas.elements.size(), 1u);
  EXPECT_EQ(replicas.elements[0].elements[1].text, "127.0.0.1:27413");
  EXPECT_EQ(sentinel_execute(known, {"SENTINEL", "slaves", "mymaster"}), replicas);
  EXPECT_REPLY(sentinel_execute(known, {"SENTINEL", "sentinels", "mymaster"}), Reply::array({}));
}

}  // namespace
}  // namespace lockcheck::mock
