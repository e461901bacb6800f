// LMPOP/BLMPOP, ZMPOP/BZMPOP and SORT/SORT_RO against replies recorded from redis-server 7.0.15.
#include <gtest/gtest.h>

#include "mock_test_support.hpp"

namespace lockcheck::mock::testing {
namespace {

#define EXPECT_REPLY(actual, expected) EXPECT_EQ(to_string(actual), to_string(expected)) << "reply kinds must match too"

class MpopAndSort : public ::testing::Test, public MockFixture {};

const char* const kWrongType = "WRONGTYPE Operation against a key holding the wrong kind of value";

Reply bulks(std::initializer_list<const char*> texts) {
  std::vector<Reply> out;
  for (const char* text : texts) out.push_back(B(text));
  return A(std::move(out));
}

TEST_F(MpopAndSort, LmpopPopsFromTheFirstNonEmptyList) {
  run({"rpush", "l", "a", "b", "c", "d"});
  run({"set", "str", "v"});
  EXPECT_REPLY(run({"lpop", "l", "1", "2"}), E("ERR wrong number of arguments for 'lpop' command"));
  EXPECT_REPLY(run({"RPOP", "l", "1", "2"}), E("ERR wrong number of arguments for 'rpop' command"));
  EXPECT_REPLY(run({"lmpop", "2", "missing", "l", "left"}), A({B("l"), bulks({"a"})}));
  EXPECT_REPLY(run({"lmpop", "1", "l", "RIGHT", "count", "2"}), A({B("l"), bulks({"d", "c"})}));
  EXPECT_REPLY(run({"lmpop", "1", "l", "right", "count", "5"}), A({B("l"), bulks({"b"})}));
  EXPECT_REPLY(run({"exists", "l"}), I(0));
  EXPECT_REPLY(run({"lmpop", "1", "l", "left"}), Reply::null_array());
  EXPECT_REPLY(run({"lmpop", "0", "l", "left"}), E("ERR numkeys should be greater than 0"));
  EXPECT_REPLY(run({"lmpop", "a", "l", "left"}), E("ERR numkeys should be greater than 0"));
  EXPECT_REPLY(run({"lmpop", "2", "l", "left"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"lmpop", "1", "l", "up"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"lmpop", "1", "l", "left", "count", "0"}), E("ERR count should be greater than 0"));
  EXPECT_REPLY(run({"lmpop", "1", "l", "left", "count"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"lmpop", "1", "l", "left", "count", "1", "count", "2"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"lmpop", "2", "missing", "str", "left"}), E(kWrongType));
  EXPECT_REPLY(run({"blmpop", "0.01", "1", "missing", "left"}), Reply::null_array());  // no transport: at once
  EXPECT_REPLY(run({"blmpop", "x", "1", "missing", "left"}), E("ERR timeout is not a float or out of range"));
  EXPECT_REPLY(run({"blmpop", "-1", "1", "missing", "left"}), E("ERR timeout is negative"));
  EXPECT_REPLY(run({"blmpop", "0.01", "1", "missing", "up"}), E("ERR syntax error"));
}

TEST_F(MpopAndSort, ZmpopRepliesMemberScorePairs) {
  run({"zadd", "z", "1", "a", "2", "b", "3", "c"});
  run({"set", "str", "v"});
  EXPECT_REPLY(run({"zmpop", "1", "z", "min"}), A({B("z"), A({bulks({"a", "1"})})}));
  EXPECT_REPLY(run({"zmpop", "2", "missing", "z", "max", "count", "10"}), A({B("z"), A({bulks({"c", "3"}), bulks({"b", "2"})})}));
  EXPECT_REPLY(run({"exists", "z"}), I(0));
  EXPECT_REPLY(run({"zmpop", "1", "z", "MAX"}), Reply::null_array());
  EXPECT_REPLY(run({"zmpop", "1", "z", "left"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"zmpop", "1", "str", "min"}), E(kWrongType));
  EXPECT_REPLY(run({"bzmpop", "0.01", "1", "missing", "min"}), Reply::null_array());
  EXPECT_REPLY(run({"bzmpop", "x", "1", "missing", "min", "count", "0"}), E("ERR count should be greater than 0"));
  session.resp = 3;
  run({"zadd", "z", "1.5", "a"});
  EXPECT_REPLY(run({"zmpop", "1", "z", "min"}), A({B("z"), A({A({B("a"), Reply::double_reply("1.5")})})}));
}

TEST_F(MpopAndSort, PopsAndStoresAnnounceAsRedisDoes) {
  std::vector<std::string> events;
  node.set_publish_sink([&](std::int64_t, const Reply& message) { events.push_back(message.elements[2].text); });
  Session listener{.client_id = 9};
  node.execute({"CONFIG", "SET", "notify-keyspace-events", "KEA"}, listener);
  node.execute({"SUBSCRIBE", "__keyspace@0__:l", "__keyspace@0__:z", "__keyspace@0__:d"}, listener);
  run({"rpush", "l", "a", "b"});
  run({"lmpop", "1", "l", "left"});
  run({"lmpop", "1", "l", "right"});
  run({"zadd", "z", "1", "a"});
  run({"zmpop", "1", "z", "max"});
  run({"rpush", "l", "1"});
  run({"sort", "l", "store", "d"});
  run({"sort", "missing", "store", "d"});
  run({"zadd", "z", "1", "a"});
  run({"zunionstore", "d", "1", "z"});
  run({"zinterstore", "d", "1", "missing"});
  run({"rpush", "l", "x", "y"});
  run({"blpop", "l", "0"});
  run({"brpop", "l", "0"});
  run({"bzpopmin", "z", "0"});
  // As redis-server 7.0.15 sends them (checked with SUBSCRIBE on it).
  const std::vector<std::string> expected = {"rpush", "lpop", "rpop", "del", "zadd", "zpopmax", "del", "rpush", "sortstore",
                                             "del", "zadd", "zunionstore", "del", "rpush", "lpop", "rpop", "zpopmin", "del"};
  EXPECT_EQ(events, expected);
}

// SORT ... STORE with an empty result deletes dst with dbDelete, which does not look at the deadline: a key past
// its deadline that nothing has expired yet is announced as deleted ("del"), never as "expired" (redis-server
// 7.0.15 with active expiry off: set, expire, del).
TEST_F(MpopAndSort, AnEmptySortStoreDeletesADstPastItsDeadlineAsDel) {
  std::vector<std::string> events;
  node.set_publish_sink([&](std::int64_t, const Reply& message) { events.push_back(message.elements[2].text); });
  Session listener{.client_id = 9};
  node.execute({"CONFIG", "SET", "notify-keyspace-events", "KEA"}, listener);
  node.execute({"SUBSCRIBE", "__keyspace@0__:d"}, listener);
  run({"set", "d", "x", "px", "10"});
  now_ms += 200;
  EXPECT_REPLY(run({"sort", "missing", "store", "d"}), Reply::integer_reply(0));
  const std::vector<std::string> expected = {"set", "expire", "del"};
  EXPECT_EQ(events, expected);
  EXPECT_REPLY(run({"exists", "d"}), Reply::integer_reply(0));
}

TEST_F(MpopAndSort, SortNumericAlphaByGetLimit) {
  run({"rpush", "l", "3", "1", "2", "10"});
  run({"mset", "w_1", "30", "w_2", "10", "w_3", "20", "w_10", "5"});
  run({"hset", "h_1", "f", "b"});
  run({"hset", "h_2", "f", "a"});
  run({"rpush", "la", "b", "a", "", "c"});
  EXPECT_REPLY(run({"sort", "l"}), bulks({"1", "2", "3", "10"}));
  EXPECT_REPLY(run({"sort", "l", "desc"}), bulks({"10", "3", "2", "1"}));
  EXPECT_REPLY(run({"sort", "l", "limit", "1", "2"}), bulks({"2", "3"}));
  EXPECT_REPLY(run({"sort", "l", "by", "w_*"}), bulks({"10", "2", "3", "1"}));
  EXPECT_REPLY(run({"sort", "l", "by", "w_*", "get", "#", "get", "h_*->f"}),
               A({B("10"), N(), B("2"), B("a"), B("3"), N(), B("1"), B("b")}));
  EXPECT_REPLY(run({"sort", "l", "by", "nosort"}), bulks({"3", "1", "2", "10"}));
  EXPECT_REPLY(run({"sort", "l", "by", "nosort", "desc", "limit", "1", "2"}), bulks({"2", "1"}));
  EXPECT_REPLY(run({"sort", "l", "by", "h_*->f", "alpha"}), bulks({"3", "10", "2", "1"}));
  EXPECT_REPLY(run({"sort", "l", "by", "w_*->"}), bulks({"1", "10", "2", "3"}));
  EXPECT_REPLY(run({"sort", "l", "by", "h_*->f"}), E("ERR One or more scores can't be converted into double"));
  EXPECT_REPLY(run({"sort", "la"}), E("ERR One or more scores can't be converted into double"));
  EXPECT_REPLY(run({"sort", "la", "alpha"}), bulks({"", "a", "b", "c"}));
  EXPECT_REPLY(run({"sort", "la", "alpha", "desc", "limit", "0", "2"}), bulks({"c", "b"}));
  EXPECT_REPLY(run({"sort", "l", "get", "w_"}), A({N(), N(), N(), N()}));
  EXPECT_REPLY(run({"sort", "l", "limit", "10", "2"}), A({}));
  EXPECT_REPLY(run({"sort", "l", "limit", "-1", "-5"}), bulks({"1", "2", "3", "10"}));
  EXPECT_REPLY(run({"sort", "l", "limit", "x", "1"}), E("ERR value is not an integer or out of range"));
  EXPECT_REPLY(run({"sort", "l", "store"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"sort_ro", "l", "store", "d"}), E("ERR syntax error"));
  run({"set", "str", "x"});
  EXPECT_REPLY(run({"sort", "str"}), E(kWrongType));
}

TEST_F(MpopAndSort, SortStoreAndScripts) {
  run({"rpush", "l", "3", "1", "2", "10"});
  run({"mset", "w_1", "30", "w_2", "10", "w_3", "20", "w_10", "5"});
  run({"sadd", "s", "c", "a", "b"});
  run({"zadd", "z", "3", "x", "1", "y", "2", "w"});
  EXPECT_REPLY(run({"sort", "z", "by", "nosort", "desc"}), bulks({"x", "w", "y"}));
  // A BY without '*' leaves the value unsorted for good: a later BY with one only names the pattern (sort.c
  // sets dontsort and never clears it; the differential test found SORT_RO z BY nosort BY k* sorted).
  run({"mset", "k_x", "1", "k_y", "3", "k_w", "2"});
  EXPECT_REPLY(run({"sort", "z", "by", "nosort", "by", "k_*"}), bulks({"y", "w", "x"}));
  EXPECT_REPLY(run({"sort_ro", "z", "by", "k_*", "by", "nosort"}), bulks({"y", "w", "x"}));
  EXPECT_REPLY(run({"sort", "z", "by", "k_*"}), bulks({"x", "w", "y"}));
  EXPECT_REPLY(run({"sort", "l", "store", "d"}), I(4));
  EXPECT_REPLY(run({"lrange", "d", "0", "-1"}), bulks({"1", "2", "3", "10"}));
  EXPECT_REPLY(run({"sort", "l", "by", "nosort", "get", "w_*", "store", "d2"}), I(4));
  EXPECT_REPLY(run({"lrange", "d2", "0", "-1"}), bulks({"20", "30", "10", "5"}));
  EXPECT_REPLY(run({"sort", "missing", "store", "d"}), I(0));
  EXPECT_REPLY(run({"exists", "d"}), I(0));
  // A set left unsorted (BY a constant) is sorted ALPHA for scripts.
  EXPECT_REPLY(eval("return redis.call('sort', KEYS[1], 'by', 'nosort')", {"s"}), bulks({"a", "b", "c"}));
  EXPECT_REPLY(eval("return redis.call('sort', KEYS[1], 'by', 'nosort', 'get', '#')", {"s"}), bulks({"a", "b", "c"}));
}

}  // namespace
// sort.c converts a sorted set to a skiplist before sorting it, destructively, for SORT_RO too (seen: the
// differential test shrank to ZADD s1 2.5 170000; SORT_RO s1; OBJECT ENCODING s1, skiplist on redis-server).
TEST_F(MpopAndSort, SortConvertsASortedSetToASkiplist) {
  run({"zadd", "z", "2.5", "170000"});
  EXPECT_REPLY(run({"object", "encoding", "z"}), B("listpack"));
  EXPECT_REPLY(run({"sort_ro", "z"}), bulks({"170000"}));
  EXPECT_REPLY(run({"object", "encoding", "z"}), B("skiplist"));
  run({"zadd", "y", "1", "a"});
  EXPECT_REPLY(run({"sort", "y", "alpha", "limit", "0", "0"}), bulks({}));
  EXPECT_REPLY(run({"object", "encoding", "y"}), B("skiplist"));
  run({"rpush", "l", "3"});
  EXPECT_REPLY(run({"sort", "l"}), bulks({"3"}));
  EXPECT_REPLY(run({"object", "encoding", "l"}), B("quicklist"));
}

}  // namespace lockcheck::mock::testing
