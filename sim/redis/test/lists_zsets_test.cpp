// List and sorted-set commands against replies recorded from redis-server 7.0.15.
#include <gtest/gtest.h>

#include "mock_test_support.hpp"

namespace lockcheck::mock::testing {
namespace {

#define EXPECT_REPLY(actual, expected) EXPECT_EQ(to_string(actual), to_string(expected)) << "reply kinds must match too"

class ListsAndZsets : public ::testing::Test, public MockFixture {};

const char* const kWrongType = "WRONGTYPE Operation against a key holding the wrong kind of value";
Reply D(std::string text) { return Reply::double_reply(std::move(text)); }

TEST_F(ListsAndZsets, ListPositions) {
  EXPECT_REPLY(run({"rpush", "l", "a", "b", "c", "a", "b"}), I(5));
  EXPECT_REPLY(run({"lindex", "l", "-1"}), B("b"));
  EXPECT_REPLY(run({"lindex", "l", "9"}), N());
  EXPECT_REPLY(run({"lindex", "missing", "x"}), N());  // the key is looked up before the index is read
  EXPECT_REPLY(run({"lindex", "l", "x"}), E("ERR value is not an integer or out of range"));
  EXPECT_REPLY(run({"lset", "l", "9", "x"}), E("ERR index out of range"));
  EXPECT_REPLY(run({"lset", "missing", "x", "x"}), E("ERR no such key"));
  EXPECT_REPLY(run({"lset", "l", "-1", "z"}), S("OK"));
  EXPECT_REPLY(run({"ltrim", "missing", "x", "1"}), E("ERR value is not an integer or out of range"));
  EXPECT_REPLY(run({"lpos", "l", "a"}), I(0));
  EXPECT_REPLY(run({"lpos", "l", "a", "rank", "2"}), I(3));
  EXPECT_REPLY(run({"lpos", "l", "a", "rank", "-1"}), I(3));
  EXPECT_REPLY(run({"lpos", "l", "a", "count", "0"}), A({I(0), I(3)}));
  EXPECT_REPLY(run({"lpos", "l", "a", "rank", "-2", "count", "2"}), A({I(0)}));
  EXPECT_REPLY(run({"lpos", "l", "c", "maxlen", "2"}), N());
  EXPECT_REPLY(run({"lpos", "l", "a", "rank", "0"}),
               E("ERR RANK can't be zero: use 1 to start from the first match, 2 from the second ... or use negative to "
                 "start from the end of the list"));
  EXPECT_REPLY(run({"lpos", "l", "a", "count", "x"}), E("ERR COUNT can't be negative"));
  EXPECT_REPLY(run({"lpos", "l", "a", "maxlen", "-1"}), E("ERR MAXLEN can't be negative"));
  EXPECT_REPLY(run({"lpos", "l", "a", "rank"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"lpos", "missing", "a", "count", "0"}), A({}));
  EXPECT_REPLY(run({"linsert", "missing", "middle", "a", "X"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"linsert", "l", "before", "a", "X"}), I(6));
  EXPECT_REPLY(run({"linsert", "l", "after", "q", "X"}), I(-1));
  EXPECT_REPLY(run({"linsert", "missing", "after", "a", "X"}), I(0));
  EXPECT_REPLY(run({"lpushx", "missing", "a"}), I(0));
  EXPECT_REPLY(run({"rpushx", "l", "y"}), I(7));
  EXPECT_REPLY(run({"lrange", "l", "0", "-1"}), A({B("X"), B("a"), B("b"), B("c"), B("a"), B("z"), B("y")}));
  EXPECT_REPLY(run({"ltrim", "l", "-2", "-1"}), S("OK"));
  EXPECT_REPLY(run({"lrange", "l", "0", "-1"}), A({B("z"), B("y")}));
  EXPECT_REPLY(run({"ltrim", "l", "1", "0"}), S("OK"));
  EXPECT_REPLY(run({"exists", "l"}), I(0));
}

TEST_F(ListsAndZsets, ListMoves) {
  run({"rpush", "l", "a", "b"});
  run({"set", "str", "v"});
  EXPECT_REPLY(run({"lmove", "l", "l2", "up", "down"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"lmove", "l", "str", "left", "left"}), E(kWrongType));
  EXPECT_REPLY(run({"lmove", "missing", "str", "left", "left"}), N());
  EXPECT_REPLY(run({"lmove", "l", "l", "right", "left"}), B("b"));  // rotation
  EXPECT_REPLY(run({"lmove", "l", "l2", "LEFT", "Right"}), B("b"));
  EXPECT_REPLY(run({"rpoplpush", "l", "l2"}), B("a"));
  EXPECT_REPLY(run({"exists", "l"}), I(0));
  EXPECT_REPLY(run({"lrange", "l2", "0", "-1"}), A({B("a"), B("b")}));
  EXPECT_REPLY(run({"lpop", "l2", "0"}), A({}));
  EXPECT_REPLY(run({"rpop", "l2", "5"}), A({B("b"), B("a")}));
  for (auto command : std::vector<Command>{{"lindex", "str", "0"}, {"lset", "str", "x", "v"}, {"ltrim", "str", "0", "1"},
                                           {"lpos", "str", "a"}, {"linsert", "str", "before", "a", "b"},
                                           {"lpushx", "str", "a"}, {"rpoplpush", "str", "l"}}) {
    EXPECT_REPLY(node.execute(command, session), E(kWrongType)) << command[0];
  }
}

TEST_F(ListsAndZsets, ScoreRanges) {
  run({"zadd", "z", "1", "a", "2", "b", "3", "c", "3", "d", "inf", "e", "-inf", "f"});
  EXPECT_REPLY(run({"zrangebyscore", "z", "(1", "3", "limit", "1", "2"}), A({B("c"), B("d")}));
  EXPECT_REPLY(run({"zrangebyscore", "z", "x", "3"}), E("ERR min or max is not a float"));
  EXPECT_REPLY(run({"zrangebyscore", "z", "1", "3", "limit", "1"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"zrangebyscore", "z", "0", "5", "rev"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"zrangebyscore", "z", "0", "5", "limit", "-1", "1"}), A({}));
  EXPECT_REPLY(run({"zrevrangebyscore", "z", "3", "1"}), A({B("d"), B("c"), B("b"), B("a")}));
  EXPECT_REPLY(run({"zrange", "z", "3", "1", "byscore", "rev", "limit", "0", "1", "withscores"}), A({B("d"), B("3")}));
  EXPECT_REPLY(run({"zrange", "z", "-inf", "+inf", "byscore", "withscores", "limit", "0", "1"}), A({B("f"), B("-inf")}));
  EXPECT_REPLY(run({"zrange", "z", "a", "c", "bylex"}), E("ERR min or max not valid string range item"));
  EXPECT_REPLY(run({"zrange", "z", "-", "+", "bylex", "withscores"}),
               E("ERR syntax error, WITHSCORES not supported in combination with BYLEX"));
  EXPECT_REPLY(run({"zrange", "z", "0", "1", "bylex", "byscore"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"zrange", "z", "0", "-1", "limit", "0", "1"}),
               E("ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX"));
  EXPECT_EQ(run({"zrange", "z", "0", "-1", "limit", "0", "-1"}).elements.size(), 6u);
  EXPECT_REPLY(run({"zrange", "z", "0", "1", "rev"}), A({B("e"), B("d")}));
  EXPECT_REPLY(run({"zrevrange", "z", "0", "0", "withscores"}), A({B("e"), B("inf")}));
  EXPECT_REPLY(run({"zcount", "z", "(1", "3"}), I(3));
  EXPECT_REPLY(run({"zcount", "z", "", "1"}), I(1));  // strtod reads "" as 0, as zslParseRange does
  EXPECT_REPLY(run({"zcount", "z", "(nan", "1"}), E("ERR min or max is not a float"));
  EXPECT_REPLY(run({"zcount", "missing", "1", "2"}), I(0));
  EXPECT_REPLY(run({"zremrangebyscore", "z", "(2", "3"}), I(2));
  EXPECT_REPLY(run({"zremrangebyrank", "z", "0", "0"}), I(1));
  EXPECT_REPLY(run({"zremrangebyrank", "missing", "x", "0"}), E("ERR value is not an integer or out of range"));
  EXPECT_REPLY(run({"zrange", "z", "0", "-1"}), A({B("a"), B("b"), B("e")}));
}

TEST_F(ListsAndZsets, LexRanges) {
  run({"zadd", "z", "0", "a", "0", "b", "0", "c", "0", "d"});
  EXPECT_REPLY(run({"zrangebylex", "z", "(a", "[c"}), A({B("b"), B("c")}));
  EXPECT_REPLY(run({"zrevrangebylex", "z", "+", "(b"}), A({B("d"), B("c")}));
  EXPECT_REPLY(run({"zrange", "z", "[b", "-", "bylex", "rev"}), A({B("b"), B("a")}));
  EXPECT_REPLY(run({"zrangebylex", "z", "+", "-"}), A({}));
  EXPECT_REPLY(run({"zlexcount", "z", "-", "+"}), I(4));
  EXPECT_REPLY(run({"zremrangebylex", "z", "x", "y"}), E("ERR min or max not valid string range item"));
  EXPECT_REPLY(run({"zremrangebylex", "z", "[c", "+"}), I(2));
}

// Mixed scores: Redis walks its small sorted set from the first member past the near bound until one is
// past the far bound (not a filter); recorded on redis-server 7.0.15.
TEST_F(ListsAndZsets, LexRangesOverMixedScoresWalkLikeRedis) {
  run({"zadd", "m", "1", "b", "2", "a", "3", "c"});
  EXPECT_REPLY(run({"zrangebylex", "m", "[a", "[c"}), A({B("b"), B("a"), B("c")}));
  EXPECT_REPLY(run({"zrangebylex", "m", "[b", "[b"}), A({B("b"), B("a")}));
  EXPECT_REPLY(run({"zrevrangebylex", "m", "[b", "[b"}), A({}));
  EXPECT_REPLY(run({"zlexcount", "m", "[b", "[b"}), I(2));
  EXPECT_REPLY(run({"zrangebylex", "m", "(a", "+", "limit", "1", "5"}), A({B("a"), B("c")}));
  EXPECT_REPLY(run({"zrevrangebylex", "m", "+", "-", "limit", "1", "1"}), A({B("a")}));
}

TEST_F(ListsAndZsets, RanksPopsIncrements) {
  run({"zadd", "z", "1", "a", "2", "b", "3", "c"});
  EXPECT_REPLY(run({"zrank", "z", "c"}), I(2));
  EXPECT_REPLY(run({"zrevrank", "z", "c"}), I(0));
  EXPECT_REPLY(run({"zrank", "z", "q"}), N());
  EXPECT_REPLY(run({"zincrby", "z", "1.5", "a"}), B("2.5"));
  EXPECT_REPLY(run({"zincrby", "z", "x", "a"}), E("ERR value is not a valid float"));
  EXPECT_REPLY(run({"zincrby", "z", "inf", "e"}), B("inf"));
  EXPECT_REPLY(run({"zincrby", "z", "-inf", "e"}), E("ERR resulting score is not a number (NaN)"));
  EXPECT_REPLY(run({"zincrby", "new", "0.1", "m"}), B("0.10000000000000001"));
  EXPECT_REPLY(run({"zmscore", "z", "b", "q"}), A({B("2"), N()}));
  EXPECT_REPLY(run({"zmscore", "missing", "a"}), A({N()}));
  EXPECT_REPLY(run({"zpopmin", "z"}), A({B("b"), B("2")}));
  EXPECT_REPLY(run({"zpopmax", "z", "2"}), A({B("e"), B("inf"), B("c"), B("3")}));
  EXPECT_REPLY(run({"zpopmax", "z", "-1"}), E("ERR value is out of range, must be positive"));
  EXPECT_REPLY(run({"zpopmin", "missing"}), A({}));
  EXPECT_REPLY(run({"zpopmin", "z", "1", "2"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"zpopmin", "z", "9"}), A({B("a"), B("2.5")}));
  EXPECT_REPLY(run({"exists", "z"}), I(0));
  run({"set", "str", "v"});
  for (auto command : std::vector<Command>{{"zrank", "str", "a"}, {"zmscore", "str", "a"}, {"zpopmin", "str"},
                                           {"zcount", "str", "0", "1"}, {"zrangebyscore", "str", "0", "1"},
                                           {"zincrby", "str", "1", "a"}}) {
    EXPECT_REPLY(node.execute(command, session), E(kWrongType)) << command[0];
  }
}

TEST_F(ListsAndZsets, Resp3ScoreShapes) {
  run({"zadd", "z", "1", "a", "2", "b"});
  session.resp = 3;
  EXPECT_REPLY(run({"zpopmin", "z"}), A({B("a"), D("1")}));           // a single pop: flat
  EXPECT_REPLY(run({"zpopmax", "z", "1"}), A({A({B("b"), D("2")})}));  // with a count: pairs
  run({"zadd", "z", "1", "a", "2", "b"});
  EXPECT_REPLY(run({"zrangebyscore", "z", "2", "2", "withscores"}), A({A({B("b"), D("2")})}));
  EXPECT_REPLY(run({"zmscore", "z", "a", "q"}), A({D("1"), N()}));
}

}  // namespace
}  // namespace lockcheck::mock::testing
