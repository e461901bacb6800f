// ZUNION/ZINTER/ZDIFF (+STORE), ZINTERCARD and ZRANGESTORE against replies recorded from redis-server 7.0.15.
#include <gtest/gtest.h>

#include "mock_test_support.hpp"

namespace lockcheck::mock::testing {
namespace {

#define EXPECT_REPLY(actual, expected) EXPECT_EQ(to_string(actual), to_string(expected)) << "reply kinds must match too"

class ZSetAlgebra : public ::testing::Test, public MockFixture {
 protected:
  void SetUp() override {
    run({"zadd", "za", "1", "a", "2", "b", "3", "c"});
    run({"zadd", "zb", "1", "b", "2", "c", "3", "d"});
    run({"sadd", "s", "a", "d", "x"});
    run({"set", "str", "v"});
  }
};

Reply D(std::string text) { return Reply::double_reply(std::move(text)); }
Reply scored(std::initializer_list<std::pair<const char*, const char*>> items) {
  std::vector<Reply> out;
  for (const auto& [member, score] : items) {
    out.push_back(B(member));
    out.push_back(B(score));  // RESP2: a double is a bulk string
  }
  return A(std::move(out));
}

TEST_F(ZSetAlgebra, UnionInterDiffWithWeightsAggregatesAndPlainSets) {
  EXPECT_REPLY(run({"zunion", "2", "za", "zb", "withscores"}), scored({{"a", "1"}, {"b", "3"}, {"d", "3"}, {"c", "5"}}));
  EXPECT_REPLY(run({"zunion", "2", "za", "s", "withscores"}),
               scored({{"d", "1"}, {"x", "1"}, {"a", "2"}, {"b", "2"}, {"c", "3"}}));
  EXPECT_REPLY(run({"zinter", "2", "za", "zb", "weights", "2", "3", "withscores"}), scored({{"b", "7"}, {"c", "12"}}));
  EXPECT_REPLY(run({"zinter", "2", "za", "s", "aggregate", "max", "withscores"}), scored({{"a", "1"}}));
  EXPECT_REPLY(run({"zunion", "2", "za", "zb", "AGGREGATE", "MIN", "WITHSCORES"}),
               scored({{"a", "1"}, {"b", "1"}, {"c", "2"}, {"d", "3"}}));
  EXPECT_REPLY(run({"zunion", "2", "za", "zb"}), A({B("a"), B("b"), B("d"), B("c")}));
  EXPECT_REPLY(run({"zdiff", "2", "za", "zb", "withscores"}), scored({{"a", "1"}}));
  EXPECT_REPLY(run({"zdiff", "2", "s", "za", "withscores"}), scored({{"d", "1"}, {"x", "1"}}));
  EXPECT_REPLY(run({"zdiff", "2", "za", "za"}), A({}));
  EXPECT_REPLY(run({"zunion", "1", "missing"}), A({}));
  EXPECT_REPLY(run({"zinter", "2", "za", "missing"}), A({}));
  EXPECT_REPLY(run({"zintercard", "2", "za", "zb"}), I(2));
  EXPECT_REPLY(run({"zintercard", "2", "za", "zb", "limit", "1"}), I(1));
}

TEST_F(ZSetAlgebra, ErrorsInRedisOrder) {
  EXPECT_REPLY(run({"zintercard", "1", "za", "limit", "-1"}), E("ERR LIMIT can't be negative"));
  EXPECT_REPLY(run({"zintercard", "1", "za", "limit", "a"}), E("ERR LIMIT can't be negative"));
  EXPECT_REPLY(run({"zintercard", "1", "za", "za"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"zintercard", "0", "za"}), E("ERR at least 1 input key is needed for 'zintercard' command"));
  EXPECT_REPLY(run({"ZUNION", "0", "za"}), E("ERR at least 1 input key is needed for 'zunion' command"));
  EXPECT_REPLY(run({"zinterstore", "dst", "0", "za"}), E("ERR at least 1 input key is needed for 'zinterstore' command"));
  EXPECT_REPLY(run({"zunion", "x", "za"}), E("ERR value is not an integer or out of range"));
  EXPECT_REPLY(run({"zunion", "3", "za", "zb"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"zunion", "2", "za", "str"}), E("WRONGTYPE Operation against a key holding the wrong kind of value"));
  EXPECT_REPLY(run({"zunion", "2", "za", "zb", "weights", "1"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"zunion", "2", "za", "zb", "weights", "1", "nan"}), E("ERR weight value is not a float"));
  EXPECT_REPLY(run({"zunion", "2", "za", "zb", "weights", "1", "x"}), E("ERR weight value is not a float"));
  EXPECT_REPLY(run({"zunion", "2", "za", "zb", "aggregate", "foo"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"zunion", "2", "za", "zb", "aggregate"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"zdiff", "2", "za", "zb", "weights", "1", "2"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"zunionstore", "d", "2", "za", "zb", "withscores"}), E("ERR syntax error"));
}

TEST_F(ZSetAlgebra, InfinitiesThatCancelCountAsZero) {
  run({"zadd", "zi", "inf", "a", "-inf", "b"});
  run({"zadd", "zj", "-inf", "a", "inf", "b"});
  EXPECT_REPLY(run({"zunionstore", "d", "2", "zi", "zj"}), I(2));
  EXPECT_REPLY(run({"zrange", "d", "0", "-1", "withscores"}), scored({{"a", "0"}, {"b", "0"}}));
  EXPECT_REPLY(run({"zinterstore", "d", "2", "zi", "zj", "weights", "0", "1"}), I(2));
  EXPECT_REPLY(run({"zrange", "d", "0", "-1", "withscores"}), scored({{"a", "-inf"}, {"b", "inf"}}));
}

TEST_F(ZSetAlgebra, StoresReplaceTheDestinationOrDeleteIt) {
  run({"set", "d", "old", "EX", "100"});
  EXPECT_REPLY(run({"zdiffstore", "d", "2", "za", "zb"}), I(1));
  EXPECT_REPLY(run({"ttl", "d"}), I(-1));
  EXPECT_REPLY(run({"zunionstore", "d", "1", "missing"}), I(0));
  EXPECT_REPLY(run({"exists", "d"}), I(0));
  EXPECT_REPLY(run({"zrangestore", "dst", "za", "0", "-1"}), I(3));
  EXPECT_REPLY(run({"zrangestore", "dst", "za", "0", "-1", "withscores"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"zrangestore", "dst", "za", "(1", "+inf", "byscore", "limit", "0", "1"}), I(1));
  EXPECT_REPLY(run({"zrange", "dst", "0", "-1", "withscores"}), scored({{"b", "2"}}));
  EXPECT_REPLY(run({"zrangestore", "dst", "za", "[b", "+", "bylex", "rev"}), I(0));
  EXPECT_REPLY(run({"zrangestore", "dst", "str", "0", "-1"}), E("WRONGTYPE Operation against a key holding the wrong kind of value"));
  run({"zrangestore", "dst", "za", "0", "0"});
  EXPECT_REPLY(run({"zrangestore", "dst", "missing", "0", "-1"}), I(0));
  EXPECT_REPLY(run({"exists", "dst"}), I(0));
  EXPECT_REPLY(run({"zrangestore", "dst", "za", "0", "-1", "limit", "0", "1"}),
               E("ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX"));
}

TEST_F(ZSetAlgebra, Resp3PairsMembersWithScores) {
  session.resp = 3;
  EXPECT_REPLY(run({"zinter", "2", "za", "zb", "withscores"}), A({A({B("b"), D("3")}), A({B("c"), D("5")})}));
}

}  // namespace
}  // namespace lockcheck::mock::testing
