// Set commands against replies recorded from redis-server 7.0.15 (order-free cases; SPOP/SRANDMEMBER seeded).
#include <gtest/gtest.h>

#include "mock_test_support.hpp"

namespace lockcheck::mock::testing {
namespace {

#define EXPECT_REPLY(actual, expected) EXPECT_EQ(to_string(actual), to_string(expected)) << "reply kinds must match too"

class Sets : public ::testing::Test, public MockFixture {};

const char* const kWrongType = "WRONGTYPE Operation against a key holding the wrong kind of value";

TEST_F(Sets, MembershipAndCardinality) {
  EXPECT_REPLY(run({"sadd", "s", "3", "1", "2", "1"}), I(3));
  EXPECT_REPLY(run({"type", "s"}), S("set"));
  EXPECT_REPLY(run({"smembers", "s"}), A({B("1"), B("2"), B("3")}));  // intset order: numeric
  EXPECT_REPLY(run({"sadd", "s", "-10", "a"}), I(2));
  EXPECT_REPLY(run({"smembers", "s"}), A({B("-10"), B("1"), B("2"), B("3"), B("a")}));
  EXPECT_REPLY(run({"scard", "s"}), I(5));
  EXPECT_REPLY(run({"sismember", "s", "a"}), I(1));
  EXPECT_REPLY(run({"smismember", "s", "a", "z", "1"}), A({I(1), I(0), I(1)}));
  EXPECT_REPLY(run({"smismember", "missing", "a"}), A({I(0)}));
  EXPECT_REPLY(run({"srem", "s", "a", "z", "-10"}), I(2));
  EXPECT_REPLY(run({"srem", "s", "1", "2", "3"}), I(3));
  EXPECT_REPLY(run({"exists", "s"}), I(0));  // an emptied set is deleted
  EXPECT_REPLY(run({"smembers", "s"}), A({}));
  EXPECT_REPLY(run({"smismember", "s"}), E("ERR wrong number of arguments for 'smismember' command"));
}

TEST_F(Sets, WrongTypeEverywhere) {
  run({"set", "str", "v"});
  for (auto command : std::vector<Command>{{"sadd", "str", "a"}, {"srem", "str", "a"}, {"sismember", "str", "a"},
                                           {"smismember", "str", "a"}, {"smembers", "str"}, {"scard", "str"},
                                           {"spop", "str"}, {"spop", "str", "2"}, {"srandmember", "str", "-2"},
                                           {"sscan", "str", "0"}, {"sinter", "missing", "str"},
                                           {"sunion", "missing", "str"}, {"sdiff", "missing", "str"},
                                           {"sinterstore", "d", "str"}, {"sintercard", "2", "missing", "str"},
                                           {"smove", "str", "s", "a"}}) {
    EXPECT_REPLY(node.execute(command, session), E(kWrongType)) << command[0];
  }
  run({"sadd", "s", "a"});
  EXPECT_REPLY(run({"smove", "s", "str", "a"}), E(kWrongType));
  EXPECT_REPLY(run({"smove", "missing", "str", "a"}), I(0));  // a missing source is checked first
  EXPECT_REPLY(run({"get", "s"}), E(kWrongType));
}

TEST_F(Sets, AlgebraAndStore) {
  run({"sadd", "a", "1", "2", "3", "x"});
  run({"sadd", "b", "2", "3", "4"});
  EXPECT_REPLY(run({"sinter", "a", "b"}), A({B("2"), B("3")}));
  EXPECT_REPLY(run({"sinter", "a", "missing"}), A({}));
  EXPECT_REPLY(run({"sunion", "a", "b", "missing"}), A({B("1"), B("2"), B("3"), B("4"), B("x")}));
  EXPECT_REPLY(run({"sdiff", "a", "b"}), A({B("1"), B("x")}));
  EXPECT_REPLY(run({"sdiff", "missing", "a"}), A({}));
  run({"set", "d", "string"});
  EXPECT_REPLY(run({"sinterstore", "d", "a", "b"}), I(2));  // replaces any type
  EXPECT_REPLY(run({"type", "d"}), S("set"));
  EXPECT_REPLY(run({"sdiffstore", "d", "missing"}), I(0));
  EXPECT_REPLY(run({"exists", "d"}), I(0));
  EXPECT_REPLY(run({"sunionstore", "d", "a", "b"}), I(5));
  EXPECT_REPLY(run({"sintercard", "2", "a", "b"}), I(2));
  EXPECT_REPLY(run({"sintercard", "2", "a", "b", "LIMIT", "1"}), I(1));
  EXPECT_REPLY(run({"sintercard", "0", "a"}), E("ERR numkeys should be greater than 0"));
  EXPECT_REPLY(run({"sintercard", "x", "a"}), E("ERR numkeys should be greater than 0"));
  EXPECT_REPLY(run({"sintercard", "2", "a"}), E("ERR Number of keys can't be greater than number of args"));
  EXPECT_REPLY(run({"sintercard", "1", "a", "limit", "x"}), E("ERR LIMIT can't be negative"));
  EXPECT_REPLY(run({"sintercard", "1", "a", "foo"}), E("ERR syntax error"));
}

TEST_F(Sets, Smove) {
  run({"sadd", "s", "a", "b"});
  EXPECT_REPLY(run({"smove", "s", "s", "a"}), I(1));
  EXPECT_REPLY(run({"smove", "s", "s", "z"}), I(0));
  EXPECT_REPLY(run({"smove", "s", "t", "z"}), I(0));
  EXPECT_REPLY(run({"smove", "s", "t", "a"}), I(1));
  EXPECT_REPLY(run({"smove", "s", "t", "b"}), I(1));
  EXPECT_REPLY(run({"exists", "s"}), I(0));
  EXPECT_REPLY(run({"smembers", "t"}), A({B("a"), B("b")}));
}

TEST_F(Sets, PopAndRandomMemberShapes) {
  EXPECT_REPLY(run({"spop", "missing"}), N());
  EXPECT_REPLY(run({"spop", "missing", "2"}), A({}));
  EXPECT_REPLY(run({"srandmember", "missing"}), N());
  EXPECT_REPLY(run({"srandmember", "missing", "2"}), A({}));
  run({"sadd", "s", "a", "b", "c"});
  EXPECT_REPLY(run({"spop", "s", "-1"}), E("ERR value is out of range, must be positive"));
  EXPECT_REPLY(run({"spop", "s", "x"}), E("ERR value is out of range, must be positive"));
  EXPECT_REPLY(run({"spop", "s", "1", "2"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"srandmember", "s", "x"}), E("ERR value is not an integer or out of range"));
  EXPECT_REPLY(run({"srandmember", "s", "-9223372036854775808"}),
               E("ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807"));
  EXPECT_REPLY(run({"srandmember", "s", "0"}), A({}));
  EXPECT_REPLY(run({"srandmember", "s", "5"}), A({B("a"), B("b"), B("c")}));
  EXPECT_EQ(run({"srandmember", "s", "-7"}).elements.size(), 7u);
  const Reply two = run({"srandmember", "s", "2"});
  ASSERT_EQ(two.elements.size(), 2u);
  EXPECT_NE(two.elements[0], two.elements[1]);
  EXPECT_REPLY(run({"spop", "s", "0"}), A({}));
  const Reply popped = run({"spop", "s"});
  EXPECT_EQ(popped.kind, Reply::Kind::bulk);
  EXPECT_REPLY(run({"sismember", "s", popped.text}), I(0));
  EXPECT_REPLY(run({"scard", "s"}), I(2));
  EXPECT_EQ(run({"spop", "s", "9"}).elements.size(), 2u);
  EXPECT_REPLY(run({"exists", "s"}), I(0));
}

TEST_F(Sets, RandomChoicesReplayFromTheSeed) {
  auto draws = [](std::uint64_t seed) {
    Node node(NodeOptions{.clock = [] { return std::int64_t{0}; }, .eviction_seed = seed});
    Session session{.client_id = 1};
    node.execute({"sadd", "s", "a", "b", "c", "d", "e", "f", "g"}, session);
    std::string out;
    for (int i = 0; i < 4; ++i) out += to_string(node.execute({"srandmember", "s", "-3"}, session));
    return out + to_string(node.execute({"spop", "s", "3"}, session));
  };
  EXPECT_EQ(draws(7), draws(7));
  EXPECT_NE(draws(7), draws(8));
}

TEST_F(Sets, Sscan) {
  EXPECT_REPLY(run({"sscan", "missing", "0", "foo"}), A({B("0"), A({})}));  // options unread without a key
  run({"sadd", "i", "3", "1", "2"});
  EXPECT_REPLY(run({"sscan", "i", "7", "count", "1"}), A({B("0"), A({B("1"), B("2"), B("3")})}));  // intset: whole
  EXPECT_REPLY(run({"sscan", "i", "x"}), E("ERR invalid cursor"));
  EXPECT_REPLY(run({"sscan", "i", "18446744073709551616"}), E("ERR invalid cursor"));
  EXPECT_REPLY(run({"sscan", "i", "0", "count", "0"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"sscan", "i", "0", "count", "x"}), E("ERR value is not an integer or out of range"));
  EXPECT_REPLY(run({"sscan", "i", "0", "match"}), E("ERR syntax error"));
  run({"sadd", "s", "ab", "ac", "b", "c"});
  EXPECT_REPLY(run({"sscan", "s", "0", "match", "a*"}), A({B("0"), A({B("ab"), B("ac")})}));
  // Paging visits every member once.
  EXPECT_REPLY(run({"sscan", "s", "0", "count", "3"}), A({B("3"), A({B("ab"), B("ac"), B("b")})}));
  EXPECT_REPLY(run({"sscan", "s", "3", "count", "3"}), A({B("0"), A({B("c")})}));
}

TEST_F(Sets, Resp3RepliesASetAndScriptsSeeArrays) {
  run({"sadd", "s", "b", "a"});
  session.resp = 3;
  EXPECT_EQ(run({"smembers", "s"}).kind, Reply::Kind::set);
  EXPECT_EQ(run({"sunion", "s"}).kind, Reply::Kind::set);
  EXPECT_EQ(run({"spop", "missing", "1"}).kind, Reply::Kind::set);
  EXPECT_EQ(run({"srandmember", "s", "1"}).kind, Reply::Kind::array);
  session.resp = 2;
  EXPECT_REPLY(eval("return redis.call('smembers', KEYS[1])", {"s"}), A({B("a"), B("b")}));
  EXPECT_REPLY(eval("redis.setresp(3) return redis.call('smembers', KEYS[1])", {"s"}), A({B("a"), B("b")}));
}

}  // namespace
}  // namespace lockcheck::mock::testing
