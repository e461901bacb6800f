// HRANDFIELD and ZRANDMEMBER: Redis 7.0.15's count rules, reply shapes and errors; draws replay per seed.
#include <gtest/gtest.h>

#include <set>

#include "mock_test_support.hpp"

namespace lockcheck::mock::testing {
namespace {

#define EXPECT_REPLY(actual, expected) EXPECT_EQ(to_string(actual), to_string(expected))

class RandomFields : public ::testing::Test, public MockFixture {
 protected:
  RandomFields() {
    run({"hset", "h", "a", "1", "b", "2", "c", "3"});
    run({"zadd", "z", "1", "a", "2", "b", "3", "c"});
  }
};

TEST_F(RandomFields, PositiveCountsAreDistinctAndWholeAtTheSize) {
  EXPECT_REPLY(run({"hrandfield", "h", "3"}), A({B("a"), B("b"), B("c")}));
  EXPECT_REPLY(run({"hrandfield", "h", "10", "withvalues"}), A({B("a"), B("1"), B("b"), B("2"), B("c"), B("3")}));
  EXPECT_REPLY(run({"zrandmember", "z", "5", "WITHSCORES"}), A({B("c"), B("3"), B("b"), B("2"), B("a"), B("1")}));
  const Reply two = run({"hrandfield", "h", "2"});
  ASSERT_EQ(two.elements.size(), 2u);
  EXPECT_NE(two.elements[0].text, two.elements[1].text);
  EXPECT_REPLY(run({"hrandfield", "h", "0"}), A({}));
  EXPECT_REPLY(run({"hrandfield", "missing", "3"}), A({}));
  EXPECT_REPLY(run({"hrandfield", "missing"}), N());
  EXPECT_REPLY(run({"zrandmember", "missing"}), N());
}

TEST_F(RandomFields, NegativeCountsRepeat) {
  const Reply draws = run({"hrandfield", "h", "-30"});
  ASSERT_EQ(draws.elements.size(), 30u);
  std::set<std::string> seen;
  for (const Reply& field : draws.elements) seen.insert(field.text);
  EXPECT_EQ(seen.size(), 3u);  // 30 draws over 3 fields: all of them, with repeats
  EXPECT_EQ(run({"zrandmember", "z", "-5", "withscores"}).elements.size(), 10u);
}

TEST_F(RandomFields, Resp3NestsPairs) {
  session.resp = 3;
  const Reply pairs = run({"hrandfield", "h", "3", "withvalues"});
  ASSERT_EQ(pairs.elements.size(), 3u);
  EXPECT_REPLY(pairs.elements[0], A({B("a"), B("1")}));
  const Reply scored = run({"zrandmember", "z", "1", "withscores"});
  ASSERT_EQ(scored.elements.size(), 1u);
  EXPECT_EQ(scored.elements[0].elements.size(), 2u);
  EXPECT_EQ(scored.elements[0].elements[1].kind, Reply::Kind::double_number);
}

TEST_F(RandomFields, Errors) {
  EXPECT_REPLY(run({"hrandfield", "h", "x"}), E("ERR value is not an integer or out of range"));
  EXPECT_REPLY(run({"hrandfield", "h", "-9223372036854775808"}),
               E("ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807"));
  EXPECT_REPLY(run({"hrandfield", "h", "-9223372036854770000", "withvalues"}), E("ERR value is out of range"));
  EXPECT_REPLY(run({"hrandfield", "h", "1", "withscores"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"zrandmember", "z", "1", "withvalues"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"hrandfield", "z", "1"}), E("WRONGTYPE Operation against a key holding the wrong kind of value"));
  EXPECT_REPLY(run({"hrandfield", "missing", "x"}), E("ERR value is not an integer or out of range"));
}

TEST_F(RandomFields, TheSameSeedDrawsTheSame) {
  MockFixture other;
  other.run({"hset", "h", "a", "1", "b", "2", "c", "3"});
  other.run({"zadd", "z", "1", "a", "2", "b", "3", "c"});
  for (const char* count : {"-7", "1", "2"}) {
    EXPECT_REPLY(run({"hrandfield", "h", count}), other.run({"hrandfield", "h", count}));
  }
}

}  // namespace
}  // namespace lockcheck::mock::testing
