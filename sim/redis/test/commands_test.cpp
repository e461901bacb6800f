// Hand-written edge cases for commands, error strings and expiry (replies checked against redis-server 7.0.15).
#include <gtest/gtest.h>

#include "mock_test_support.hpp"

namespace lockcheck::mock::testing {
namespace {

#define EXPECT_REPLY(actual, expected) EXPECT_EQ(to_string(actual), to_string(expected)) << "reply kinds must match too"

class Commands : public ::testing::Test, public MockFixture {};

TEST_F(Commands, ErrorStringsMatchRedis70) {
  EXPECT_REPLY(run({"foo", "a", "b", "c"}), E("ERR unknown command 'foo', with args beginning with: 'a' 'b' 'c' "));
  EXPECT_REPLY(run({"foo"}), E("ERR unknown command 'foo', with args beginning with: "));
  EXPECT_REPLY(run({"GET"}), E("ERR wrong number of arguments for 'get' command"));
  EXPECT_REPLY(run({"script", "exists"}), E("ERR wrong number of arguments for 'script|exists' command"));
  EXPECT_REPLY(run({"script", "foo"}), E("ERR unknown subcommand 'foo'. Try SCRIPT HELP."));
  EXPECT_REPLY(run({"ping", "a", "b"}), E("ERR wrong number of arguments for 'ping' command"));
  EXPECT_REPLY(run({"hset", "h", "a"}), E("ERR wrong number of arguments for 'hset' command"));
  EXPECT_REPLY(run({"evalsha", "abc", "0"}), E("NOSCRIPT No matching script. Please use EVAL."));
}

TEST_F(Commands, SetOptions) {
  EXPECT_REPLY(run({"set", "k", "v", "ex", "0"}), E("ERR invalid expire time in 'set' command"));
  EXPECT_REPLY(run({"set", "k", "v", "ex", "abc"}), E("ERR value is not an integer or out of range"));
  EXPECT_REPLY(run({"set", "k", "v", "nx", "xx"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"set", "k", "v", "ex", "10", "px", "10"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"set", "k", "v", "keepttl", "px", "10"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"set", "k", "v", "ex"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"set", "k", "v", "EX", "10", "ex", "20"}), S("OK"));  // same option twice is fine
  EXPECT_REPLY(run({"ttl", "k"}), I(20));
  EXPECT_REPLY(run({"set", "k", "w", "nx"}), N());
  EXPECT_REPLY(run({"set", "k", "w", "nx", "get"}), B("v"));
  EXPECT_REPLY(run({"set", "k", "w", "keepttl", "get"}), B("v"));
  EXPECT_REPLY(run({"ttl", "k"}), I(20));
  EXPECT_REPLY(run({"set", "k", "x"}), S("OK"));
  EXPECT_REPLY(run({"ttl", "k"}), I(-1));  // a plain SET clears the TTL
  EXPECT_REPLY(run({"set", "missing", "x", "xx", "get"}), N());
  EXPECT_REPLY(run({"exists", "missing"}), I(0));
  EXPECT_REPLY(run({"hset", "h", "f", "v"}), I(1));
  EXPECT_REPLY(run({"set", "h", "x", "get"}), E("WRONGTYPE Operation against a key holding the wrong kind of value"));
  EXPECT_REPLY(run({"set", "h", "x"}), S("OK"));  // without GET, SET overwrites any type
  EXPECT_REPLY(run({"type", "h"}), S("string"));
}

TEST_F(Commands, IntegersAreStrictAndOverflowIsAnError) {
  for (const char* bad : {"+1", " 1", "01", "-0", "1.5", "1e3", "", "99999999999999999999"}) {
    EXPECT_REPLY(run({"set", "n", bad}), S("OK"));
    EXPECT_REPLY(run({"incr", "n"}), E("ERR value is not an integer or out of range")) << bad;
  }
  EXPECT_REPLY(run({"set", "n", "9223372036854775807"}), S("OK"));
  EXPECT_REPLY(run({"incr", "n"}), E("ERR increment or decrement would overflow"));
  EXPECT_REPLY(run({"set", "n", "-9223372036854775808"}), S("OK"));
  EXPECT_REPLY(run({"decr", "n"}), E("ERR increment or decrement would overflow"));
  EXPECT_REPLY(run({"decrby", "n", "-9223372036854775808"}), E("ERR decrement would overflow"));
  EXPECT_REPLY(run({"incrby", "c", "1.5"}), E("ERR value is not an integer or out of range"));
  EXPECT_REPLY(run({"incrby", "c", "-5"}), I(-5));
  EXPECT_REPLY(run({"hset", "h", "f", "x"}), I(1));
  EXPECT_REPLY(run({"hincrby", "h", "f", "1"}), E("ERR hash value is not an integer"));
  EXPECT_REPLY(run({"hincrby", "h", "g", "x"}), E("ERR value is not an integer or out of range"));
  EXPECT_REPLY(run({"incr", "h"}), E("WRONGTYPE Operation against a key holding the wrong kind of value"));
}

TEST_F(Commands, ExpireOptions) {
  EXPECT_REPLY(run({"expire", "k", "10", "nx", "xx"}), E("ERR NX and XX, GT or LT options at the same time are not compatible"));
  EXPECT_REPLY(run({"expire", "k", "10", "gt", "lt"}), E("ERR GT and LT options at the same time are not compatible"));
  EXPECT_REPLY(run({"expire", "k", "10", "foo"}), E("ERR Unsupported option foo"));
  EXPECT_REPLY(run({"expire", "k", "99999999999999999"}), E("ERR invalid expire time in 'expire' command"));
  EXPECT_REPLY(run({"expire", "k", "10"}), I(0));  // missing key
  run({"set", "k", "v"});
  EXPECT_REPLY(run({"expire", "k", "10", "gt"}), I(0));  // no TTL counts as infinite
  EXPECT_REPLY(run({"expire", "k", "10", "xx"}), I(0));
  EXPECT_REPLY(run({"expire", "k", "10", "lt"}), I(1));
  EXPECT_REPLY(run({"expire", "k", "20", "nx"}), I(0));
  EXPECT_REPLY(run({"expire", "k", "20", "gt"}), I(1));
  EXPECT_REPLY(run({"expire", "k", "15", "gt"}), I(0));
  EXPECT_REPLY(run({"pexpire", "k", "1400"}), I(1));
  EXPECT_REPLY(run({"ttl", "k"}), I(1));  // (1400 + 500) / 1000
  EXPECT_REPLY(run({"pexpire", "k", "1600"}), I(1));
  EXPECT_REPLY(run({"ttl", "k"}), I(2));
  EXPECT_REPLY(run({"pttl", "k"}), I(1600));
  EXPECT_REPLY(run({"persist", "k"}), I(1));
  EXPECT_REPLY(run({"persist", "k"}), I(0));
  EXPECT_REPLY(run({"pttl", "k"}), I(-1));
  EXPECT_REPLY(run({"pttl", "nokey"}), I(-2));
  EXPECT_REPLY(run({"expire", "k", "0"}), I(1));  // a deadline already past deletes the key
  EXPECT_REPLY(run({"exists", "k"}), I(0));
  run({"set", "k", "v"});
  EXPECT_REPLY(run({"pexpireat", "k", "1000"}), I(1));
  EXPECT_REPLY(run({"get", "k"}), N());
}

TEST_F(Commands, ExpiryFollowsTheInjectedClockIncludingJumps) {
  run({"set", "lock", "token", "px", "100"});
  now_ms += 100;
  EXPECT_REPLY(run({"get", "lock"}), B("token"));  // Redis expires when now > deadline
  EXPECT_REPLY(run({"pttl", "lock"}), I(0));
  now_ms += 1;
  EXPECT_REPLY(run({"get", "lock"}), N());
  run({"set", "a", "1", "px", "5000"});
  run({"set", "b", "1", "px", "50000"});
  run({"set", "c", "1"});
  now_ms += 3'600'000;  // the node clock jumps an hour forward
  EXPECT_REPLY(run({"dbsize"}), I(3));  // DBSIZE counts keys not reclaimed yet
  EXPECT_EQ(node.expire_some(10), 2u);
  EXPECT_REPLY(run({"dbsize"}), I(1));
  run({"set", "d", "1", "px", "10"});
  now_ms -= 3'600'000;  // and back: the key is alive again by this clock
  EXPECT_REPLY(run({"exists", "d"}), I(1));
}

TEST_F(Commands, ExpiredKeysAreAbsentForWritesToo) {
  run({"set", "k", "5", "px", "10"});
  now_ms += 11;
  EXPECT_REPLY(run({"hset", "k", "f", "v"}), I(1));  // no WRONGTYPE: the string expired
  run({"set", "n", "5", "px", "10"});
  now_ms += 11;
  EXPECT_REPLY(run({"incr", "n"}), I(1));
  EXPECT_REPLY(run({"ttl", "n"}), I(-1));
}

TEST_F(Commands, HashesListsSortedSets) {
  EXPECT_REPLY(run({"hset", "h", "b", "1", "a", "2"}), I(2));
  EXPECT_REPLY(run({"hset", "h", "b", "3", "c", "4"}), I(1));
  EXPECT_REPLY(run({"hgetall", "h"}), A({B("b"), B("3"), B("a"), B("2"), B("c"), B("4")}));  // insertion order
  EXPECT_REPLY(run({"hdel", "h", "a", "x"}), I(1));
  EXPECT_REPLY(run({"hlen", "h"}), I(2));
  EXPECT_REPLY(run({"hexists", "h", "b"}), I(1));
  EXPECT_REPLY(run({"hdel", "h", "b", "c"}), I(2));
  EXPECT_REPLY(run({"exists", "h"}), I(0));  // the last HDEL deletes the key
  EXPECT_REPLY(run({"rpush", "l", "a", "b", "c"}), I(3));
  EXPECT_REPLY(run({"lpush", "l", "z"}), I(4));
  EXPECT_REPLY(run({"lrange", "l", "0", "-1"}), A({B("z"), B("a"), B("b"), B("c")}));
  EXPECT_REPLY(run({"lrange", "l", "-2", "100"}), A({B("b"), B("c")}));
  EXPECT_REPLY(run({"lpop", "l"}), B("z"));
  EXPECT_REPLY(run({"lpop", "l", "0"}), A({}));
  EXPECT_REPLY(run({"lpop", "l", "-1"}), E("ERR value is out of range, must be positive"));
  EXPECT_REPLY(run({"lpop", "nolist", "2"}), Reply::null_array());  // "*-1" on RESP2
  EXPECT_REPLY(run({"lrem", "l", "0", "b"}), I(1));
  EXPECT_REPLY(run({"zadd", "z", "1.1", "a"}), I(1));
  EXPECT_REPLY(run({"zscore", "z", "a"}), B("1.1000000000000001"));
  EXPECT_REPLY(run({"zadd", "z", "abc", "a"}), E("ERR value is not a valid float"));
  EXPECT_REPLY(run({"zadd", "z", "1e400", "a"}), E("ERR value is not a valid float"));
  EXPECT_REPLY(run({"zadd", "z", "inf", "b", "2", "c"}), I(2));
  EXPECT_REPLY(run({"zrange", "z", "0", "-1", "withscores"}), A({B("a"), B("1.1000000000000001"), B("c"), B("2"), B("b"), B("inf")}));
  EXPECT_REPLY(run({"zrange", "z", "(1.1", "+inf", "byscore", "limit", "0", "1"}), A({B("c")}));
  EXPECT_REPLY(run({"zrem", "z", "a", "b", "c"}), I(3));
  EXPECT_REPLY(run({"exists", "z"}), I(0));
  EXPECT_REPLY(run({"lpop", "h"}), N());
}

TEST_F(Commands, ServerCommands) {
  EXPECT_REPLY(run({"ping"}), S("PONG"));
  EXPECT_REPLY(run({"ping", "x"}), B("x"));
  now_ms = 1'700'000'000'123;
  EXPECT_REPLY(run({"time"}), A({B("1700000000"), B("123000")}));
  EXPECT_REPLY(run({"wait", "0", "-1"}), E("ERR timeout is negative"));
  EXPECT_REPLY(run({"wait", "1", "100"}), I(0));
  node.set_wait_hook([](std::int64_t, std::int64_t numreplicas, std::int64_t) { return numreplicas; });
  EXPECT_REPLY(run({"wait", "2", "100"}), I(2));
  Reply info = run({"info", "replication"});
  EXPECT_NE(info.text.find("role:master\r\n"), std::string::npos);
  EXPECT_NE(info.text.find("connected_slaves:0\r\n"), std::string::npos);
  run({"set", "a", "1"});
  EXPECT_REPLY(run({"flushall"}), S("OK"));
  EXPECT_REPLY(run({"dbsize"}), I(0));
}

TEST_F(Commands, PubSubDeliversThroughTheSink) {
  std::vector<std::pair<std::int64_t, Reply>> delivered;
  node.set_publish_sink([&](std::int64_t client_id, const Reply& message) { delivered.emplace_back(client_id, message); });
  Session subscriber{.client_id = 7};
  EXPECT_REPLY(node.execute({"subscribe", "a", "b"}, subscriber), A({B("subscribe"), B("a"), I(1)}));
  ASSERT_EQ(subscriber.extra_replies.size(), 1u);
  EXPECT_REPLY(subscriber.extra_replies[0], A({B("subscribe"), B("b"), I(2)}));
  EXPECT_REPLY(node.execute({"get", "x"}, subscriber),
               E("ERR Can't execute 'get': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context"));
  EXPECT_REPLY(run({"publish", "a", "hello"}), I(1));
  EXPECT_REPLY(run({"publish", "zzz", "hello"}), I(0));
  ASSERT_EQ(delivered.size(), 1u);
  EXPECT_EQ(delivered[0].first, 7);
  // A push: a RESP2 transport sends it as an array, a RESP3 one as a push.
  EXPECT_REPLY(delivered[0].second, Reply::push({B("message"), B("a"), B("hello")}));
  EXPECT_REPLY(run({"eval", "return redis.call('publish', 'b', 'from-script')", "0"}), I(1));
  node.disconnect(subscriber);
  EXPECT_REPLY(run({"publish", "a", "hello"}), I(0));
}

struct Recorder : Observer {
  std::vector<std::string> lines;
  void on_key_event(const KeyEvent& e) override {
    lines.push_back(std::string(to_string(e.kind)) + " " + std::string(e.key) + " by " + std::to_string(e.client_id) + " " +
                    std::string(e.command) + (e.script_sha.empty() ? "" : " in script") + (e.lazy ? " lazy" : ""));
  }
};

TEST_F(Commands, ObserverSeesWhoDidWhat) {
  Recorder recorder;
  node.set_observer(&recorder);
  run({"set", "lock", "t1", "px", "100"});
  run({"eval", "return redis.call('del', KEYS[1])", "1", "lock"});
  run({"set", "lock", "t2", "px", "100"});
  now_ms += 101;
  run({"get", "lock"});
  EXPECT_EQ(recorder.lines, (std::vector<std::string>{
                                "created lock by 1 set", "expire_set lock by 1 set", "deleted lock by 1 del in script",
                                "created lock by 1 set", "expire_set lock by 1 set", "expired lock by -1  lazy"}));
}

TEST_F(Commands, EvictionIsDeterministic) {
  Recorder recorder;
  node.set_observer(&recorder);
  node.set_maxmemory_keys(2, EvictionPolicy::allkeys_lru);
  run({"set", "a", "1"});
  run({"set", "b", "1"});
  run({"get", "a"});
  EXPECT_REPLY(run({"set", "c", "1"}), S("OK"));
  EXPECT_REPLY(run({"exists", "a", "b", "c"}), I(2));  // b was least recently used
  node.set_maxmemory_keys(2, EvictionPolicy::noeviction);
  EXPECT_REPLY(run({"set", "d", "1"}), E("OOM command not allowed when used memory > 'maxmemory'."));
}

TEST_F(Commands, SnapshotAndRestore) {
  run({"set", "a", "1", "px", "1000"});
  run({"hset", "h", "f", "v"});
  Dataset saved = node.snapshot();
  run({"flushall"});
  node.restore(saved);
  EXPECT_REPLY(run({"get", "a"}), B("1"));
  EXPECT_REPLY(run({"pttl", "a"}), I(1000));
  EXPECT_REPLY(run({"hget", "h", "f"}), B("v"));
}

}  // namespace
}  // namespace lockcheck::mock::testing
