// The 16 numbered databases (issue 16): SELECT per connection, SWAPDB, MOVE, COPY, FLUSHDB vs FLUSHALL,
// DBSIZE, INFO keyspace, notifications and WATCH per database, scripts in the caller's database, cluster
// mode, and snapshots, expiry and eviction over every database. Texts are redis-server 7.0.15's.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "cluster_test_support.hpp"
#include "mock_test_support.hpp"

namespace lockcheck::mock::testing {
namespace {

#define EXPECT_REPLY(actual, expected) EXPECT_EQ(to_string(actual), to_string(expected))

TEST(Databases, SelectIsPerConnection) {
  MockFixture f;
  Session other{.client_id = 2};
  EXPECT_REPLY(f.run({"SELECT", "1"}), S("OK"));
  EXPECT_REPLY(f.run({"SET", "k", "in1"}), S("OK"));
  EXPECT_REPLY(f.node.execute({"GET", "k"}, other), N());
  EXPECT_REPLY(f.node.execute({"SET", "k", "in0"}, other), S("OK"));
  EXPECT_REPLY(f.run({"GET", "k"}), B("in1"));
  EXPECT_REPLY(f.run({"DBSIZE"}), I(1));
  EXPECT_REPLY(f.run({"SELECT", "15"}), S("OK"));
  EXPECT_REPLY(f.run({"DBSIZE"}), I(0));
  EXPECT_REPLY(f.run({"SELECT", "16"}), E("ERR DB index is out of range"));
  EXPECT_REPLY(f.run({"SELECT", "-1"}), E("ERR DB index is out of range"));
  EXPECT_REPLY(f.run({"SELECT", "x"}), E("ERR value is not an integer or out of range"));
  EXPECT_REPLY(f.run({"SELECT", "4294967296"}),
               E("ERR value is out of range, value must between -2147483648 and 2147483647"));
  EXPECT_EQ(f.run({"DBSIZE"}), I(0));  // still 15
  f.node.disconnect(f.session);  // a session reused for a new connection starts in db 0
  EXPECT_REPLY(f.run({"GET", "k"}), B("in0"));
}

TEST(Databases, SwapdbExchangesContents) {
  MockFixture f;
  f.run({"SET", "a", "0"});
  f.run({"SELECT", "2"});
  f.run({"SET", "b", "2"});
  EXPECT_REPLY(f.run({"SWAPDB", "0", "2"}), S("OK"));
  EXPECT_EQ(f.run({"GET", "a"}), B("0"));  // the client stays in db 2, which now holds db 0's keys
  EXPECT_REPLY(f.run({"GET", "b"}), N());
  EXPECT_REPLY(f.run({"SWAPDB", "x", "1"}), E("ERR invalid first DB index"));
  EXPECT_REPLY(f.run({"SWAPDB", "1", "x"}), E("ERR invalid second DB index"));
  EXPECT_REPLY(f.run({"SWAPDB", "1", "16"}), E("ERR DB index is out of range"));
  EXPECT_REPLY(f.run({"SWAPDB", "3", "3"}), S("OK"));
}

TEST(Databases, MoveKeepsTheDeadline) {
  MockFixture f;
  f.run({"SET", "k", "v", "PX", "5000"});
  EXPECT_REPLY(f.run({"MOVE", "k", "0"}), E("ERR source and destination objects are the same"));
  EXPECT_REPLY(f.run({"MOVE", "k", "16"}), E("ERR DB index is out of range"));
  EXPECT_REPLY(f.run({"MOVE", "k", "x"}), E("ERR value is not an integer or out of range"));
  EXPECT_REPLY(f.run({"MOVE", "nokey", "1"}), I(0));
  EXPECT_REPLY(f.run({"MOVE", "k", "1"}), I(1));
  EXPECT_REPLY(f.run({"EXISTS", "k"}), I(0));
  f.run({"SET", "k", "again"});
  EXPECT_EQ(f.run({"MOVE", "k", "1"}), I(0));  // taken in the target
  f.run({"SELECT", "1"});
  EXPECT_REPLY(f.run({"GET", "k"}), B("v"));
  EXPECT_REPLY(f.run({"PTTL", "k"}), I(5000));
}

TEST(Databases, CopyWithDbAndReplace) {
  MockFixture f;
  f.run({"HSET", "h", "f", "1"});
  f.run({"PEXPIRE", "h", "9000"});
  EXPECT_REPLY(f.run({"COPY", "h", "h"}), E("ERR source and destination objects are the same"));
  EXPECT_REPLY(f.run({"COPY", "h", "h", "DB", "0"}), E("ERR source and destination objects are the same"));
  EXPECT_REPLY(f.run({"COPY", "h", "h", "DB", "16"}), E("ERR DB index is out of range"));
  EXPECT_REPLY(f.run({"COPY", "h", "h", "DB"}), E("ERR syntax error"));
  EXPECT_REPLY(f.run({"COPY", "h", "h", "FOO"}), E("ERR syntax error"));
  EXPECT_REPLY(f.run({"COPY", "nokey", "x"}), I(0));
  EXPECT_REPLY(f.run({"COPY", "h", "h2"}), I(1));
  f.run({"HSET", "h", "f", "changed"});
  EXPECT_EQ(f.run({"HGET", "h2", "f"}), B("1"));  // a copy, not a shared value
  EXPECT_REPLY(f.run({"PTTL", "h2"}), I(9000));
  EXPECT_REPLY(f.run({"COPY", "h", "h2"}), I(0));
  EXPECT_REPLY(f.run({"COPY", "h", "h2", "REPLACE"}), I(1));
  EXPECT_REPLY(f.run({"HGET", "h2", "f"}), B("changed"));
  EXPECT_REPLY(f.run({"COPY", "h", "h", "DB", "3"}), I(1));
  f.run({"SELECT", "3"});
  EXPECT_REPLY(f.run({"HGET", "h", "f"}), B("changed"));
}

// unit/keyspace's "COPY basic usage for ..." per type (their OBJECT ENCODING/REFCOUNT checks aside): the copy is
// the whole value, and stays when the source changes or goes.
TEST(Databases, CopyOfEveryTypeIsAWholeIndependentValue) {
  MockFixture f;
  f.run({"RPUSH", "l", "a", "b", "c"});
  f.run({"SADD", "s", "3", "1", "a"});
  f.run({"ZADD", "z", "1", "a", "2.5", "b"});
  f.run({"HSET", "h", "tmp", "17179869184"});
  const std::vector<std::pair<Command, Reply>> reads = {
      {{"LRANGE", "l2", "0", "-1"}, A({B("a"), B("b"), B("c")})},
      {{"SMEMBERS", "s2"}, A({B("1"), B("3"), B("a")})},
      {{"ZRANGE", "z2", "0", "-1", "WITHSCORES"}, A({B("a"), B("1"), B("b"), B("2.5")})},
      {{"HGETALL", "h2"}, A({B("tmp"), B("17179869184")})},
  };
  for (const char* key : {"l", "s", "z", "h"}) EXPECT_REPLY(f.run({"COPY", key, std::string(key) + "2"}), I(1));
  f.run({"LPUSH", "l", "x"});
  f.run({"SREM", "s", "a"});
  f.run({"ZINCRBY", "z", "5", "a"});
  f.run({"HSET", "h", "tmp", "0"});
  for (const auto& [read, expected] : reads) EXPECT_REPLY(f.node.execute(read, f.session), expected) << read[0];
  EXPECT_REPLY(f.run({"DEL", "l", "s", "z", "h"}), I(4));
  for (const auto& [read, expected] : reads) EXPECT_REPLY(f.node.execute(read, f.session), expected) << read[0];
}

TEST(Databases, FlushdbEmptiesOneFlushallEvery) {
  MockFixture f;
  f.run({"SET", "a", "1"});
  f.run({"SELECT", "1"});
  f.run({"SET", "b", "1"});
  EXPECT_REPLY(f.run({"FLUSHDB", "ASYNC"}), S("OK"));
  EXPECT_REPLY(f.run({"DBSIZE"}), I(0));
  f.run({"SELECT", "0"});
  EXPECT_REPLY(f.run({"DBSIZE"}), I(1));
  f.run({"SELECT", "1"});
  f.run({"SET", "b", "1"});
  EXPECT_REPLY(f.run({"FLUSHDB", "NOW"}), E("ERR syntax error"));
  EXPECT_REPLY(f.run({"FLUSHALL", "SYNC"}), S("OK"));
  EXPECT_REPLY(f.run({"DBSIZE"}), I(0));
  f.run({"SELECT", "0"});
  EXPECT_REPLY(f.run({"DBSIZE"}), I(0));
}

TEST(Databases, InfoKeyspaceListsEachDatabase) {
  MockFixture f;
  f.run({"SET", "a", "1"});
  f.run({"SELECT", "3"});
  f.run({"SET", "b", "1", "EX", "100"});
  f.run({"SET", "c", "1"});
  const Reply info = f.run({"INFO", "keyspace"});
  EXPECT_EQ(info.text, "# Keyspace\r\ndb0:keys=1,expires=0,avg_ttl=0\r\ndb3:keys=2,expires=1,avg_ttl=0\r\n");
  EXPECT_REPLY(f.run({"CONFIG", "GET", "databases"}), A({B("databases"), B("16")}));
}

TEST(Databases, NotificationsNameTheDatabase) {
  MockFixture f;
  std::vector<std::pair<std::string, std::string>> messages;
  f.node.set_publish_sink([&](std::int64_t, const Reply& message) {
    messages.emplace_back(message.elements[1].text, message.elements[2].text);
  });
  Session listener{.client_id = 9};
  f.node.execute({"CONFIG", "SET", "notify-keyspace-events", "KEAn"}, listener);
  f.node.execute({"SUBSCRIBE", "__keyspace@2__:k", "__keyspace@5__:k", "__keyevent@5__:move_to",
                  "__keyspace@5__:c", "__keyspace@2__:c"}, listener);
  listener.extra_replies.clear();
  f.run({"SELECT", "2"});
  f.run({"SET", "k", "v"});
  f.run({"MOVE", "k", "5"});
  f.run({"SET", "c", "1"});
  f.run({"COPY", "c", "c", "DB", "5"});
  // As redis-server 7.0.15 sends them (checked with PSUBSCRIBE on it).
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"__keyspace@2__:k", "new"},       {"__keyspace@2__:k", "set"},     {"__keyspace@5__:k", "new"},
      {"__keyspace@2__:k", "move_from"}, {"__keyspace@5__:k", "move_to"}, {"__keyevent@5__:move_to", "k"},
      {"__keyspace@2__:c", "new"},       {"__keyspace@2__:c", "set"},     {"__keyspace@5__:c", "new"},
      {"__keyspace@5__:c", "copy_to"}};
  EXPECT_EQ(messages, expected);
}

TEST(Databases, WatchIsPerDatabase) {
  MockFixture f;
  Session other{.client_id = 2};
  f.run({"SELECT", "1"});
  f.run({"WATCH", "k"});
  f.node.execute({"SET", "k", "in0"}, other);  // db 0: not the watched key
  f.run({"MULTI"});
  f.run({"SET", "k", "mine"});
  EXPECT_REPLY(f.run({"EXEC"}), A({S("OK")}));
  f.run({"WATCH", "k"});
  f.node.execute({"SELECT", "1"}, other);
  f.node.execute({"SET", "k", "theirs"}, other);
  f.run({"MULTI"});
  f.run({"SET", "k", "mine"});
  EXPECT_EQ(f.run({"EXEC"}).kind, Reply::Kind::null_array);
  f.run({"WATCH", "k"});
  f.node.execute({"SWAPDB", "1", "7"}, other);  // the watched key left db 1
  f.run({"MULTI"});
  EXPECT_EQ(f.run({"EXEC"}).kind, Reply::Kind::null_array);
}

TEST(Databases, ScriptsRunInTheCallersDatabaseAndSelectStaysInTheScript) {
  MockFixture f;
  f.run({"SELECT", "4"});
  f.run({"SET", "k", "four"});
  EXPECT_REPLY(f.eval("return redis.call('GET', KEYS[1])", {"k"}), B("four"));
  EXPECT_EQ(f.eval("redis.call('SELECT', 6); redis.call('SET', KEYS[1], 'six'); return redis.call('GET', KEYS[1])", {"k"}),
            B("six"));
  EXPECT_EQ(f.run({"GET", "k"}), B("four"));  // the caller is still in db 4
  f.run({"SELECT", "6"});
  EXPECT_REPLY(f.run({"GET", "k"}), B("six"));
  // Inside MULTI: a queued script's SELECT does not move the next queued command.
  f.run({"MULTI"});
  f.eval("redis.call('SELECT', 0); return 1");
  f.run({"GET", "k"});
  EXPECT_REPLY(f.run({"EXEC"}), A({I(1), B("six")}));
  EXPECT_EQ(f.eval("return redis.call('SELECT', 16)").kind, Reply::Kind::error);
}

TEST(Databases, ClusterModeHasOnlyDatabaseZero) {
  TwoShards c;
  EXPECT_REPLY(c.run(c.node0, {"SELECT", "0"}), S("OK"));
  EXPECT_REPLY(c.run(c.node0, {"SELECT", "1"}), E("ERR SELECT is not allowed in cluster mode"));
  EXPECT_REPLY(c.run(c.node0, {"SWAPDB", "0", "1"}), E("ERR SWAPDB is not allowed in cluster mode"));
  EXPECT_REPLY(c.run(c.node0, {"MOVE", "a", "1"}), E("ERR MOVE is not allowed in cluster mode"));
  EXPECT_EQ(c.run(c.node0, {"COPY", "a", "b", "DB", "1"}),
            E("ERR Copying to another database is not allowed in cluster mode"));
}

TEST(Databases, SnapshotExpiryAndEvictionCoverEveryDatabase) {
  MockFixture f;
  f.run({"SELECT", "9"});
  f.run({"SET", "k", "v", "PX", "100"});
  f.run({"SET", "p", "v"});
  const Dataset saved = f.node.snapshot();
  f.run({"FLUSHALL"});
  f.node.restore(saved);
  EXPECT_REPLY(f.run({"GET", "p"}), B("v"));
  f.now_ms += 200;
  EXPECT_EQ(f.node.expire_some(10), 1u);
  EXPECT_EQ(f.node.keyspace().database(9).entries.size(), 1u);
  f.node.set_maxmemory_keys(2, EvictionPolicy::allkeys_lru);
  f.run({"SELECT", "0"});
  EXPECT_REPLY(f.run({"SET", "a", "1"}), S("OK"));
  EXPECT_EQ(f.run({"SET", "b", "1"}), S("OK"));  // the limit counts db 9's key too: it goes (least recent)
  EXPECT_EQ(f.node.keyspace().database(9).entries.size(), 0u);
  EXPECT_EQ(f.node.keyspace().total_size(), 2u);
}

}  // namespace
}  // namespace lockcheck::mock::testing
