// DUMP and RESTORE of keys: the mock writes redis-server 7.0.15's bytes for the encodings it shares with
// Redis, restores Redis's own payloads (captured from 7.0.15) to the same values, converts encodings on
// load as Redis does, and answers bad calls with 7.0.15's errors in its order.
#include <gtest/gtest.h>

#include "mock_test_support.hpp"
#include "redis/rdb/rdb_io.hpp"

namespace lockcheck::mock::testing {
namespace {

#define EXPECT_REPLY(actual, expected) EXPECT_EQ(to_string(actual), to_string(expected)) << "reply kinds must match too"

class DumpRestore : public ::testing::Test, public MockFixture {
 protected:
  std::string dump(const std::string& key) { return run({"dump", key}).text; }
};

// DUMP from redis-server 7.0.15 after: RPUSH l a b 1 300 -5 / HSET h f v n 12 big 100000 / ZADD z 1 a 2.5 b -3 c /
// SADD s 5 1 70000 / SADD t x y / SET str hello / SET num 1234567 / ZADD zs2 1 a 2 b (skiplist).
const std::string kRedisList("\x12\x01\x02\x15\x15\x00\x00\x00\x05\x00\x81\x61\x02\x81\x62\x02\x01\x01\xc1\x2c\x02\xdf\xfb\x02\xff\x0a\x00\x4f\xa1\xe8\xc2\xc4\xf2\x98\x32", 35);
const std::string kRedisHash("\x10\x1c\x1c\x00\x00\x00\x06\x00\x81\x66\x02\x81\x76\x02\x81\x6e\x02\x0c\x01\x83\x62\x69\x67\x04\xf2\xa0\x86\x01\x04\xff\x0a\x00\x34\x0a\x80\xeb\x24\xe6\x42\xd1", 40);
const std::string kRedisZSet("\x11\x1a\x1a\x00\x00\x00\x06\x00\x81\x63\x02\xdf\xfd\x02\x81\x61\x02\x01\x01\x81\x62\x02\x83\x32\x2e\x35\x04\xff\x0a\x00\xa6\x8a\x1a\xb1\xa9\xf2\xdc\xc2", 38);
const std::string kRedisIntset("\x0b\x14\x04\x00\x00\x00\x03\x00\x00\x00\x01\x00\x00\x00\x05\x00\x00\x00\x70\x11\x01\x00\x0a\x00\x5c\xb0\xff\x7d\x81\xa9\xff\x66", 32);
const std::string kRedisHashtableSet("\x02\x02\x01\x79\x01\x78\x0a\x00\x0c\xdf\x6b\x3d\xb3\x30\xbc\xf0", 16);
const std::string kRedisString("\x00\x05\x68\x65\x6c\x6c\x6f\x0a\x00\x63\x72\xdf\x76\x65\x34\x20\x0a", 17);
const std::string kRedisInt("\x00\xc2\x87\xd6\x12\x00\x0a\x00\xe9\x3e\x1e\x36\x2b\x3b\x7c\x5e", 16);
const std::string kRedisSkiplist("\x05\x02\x01\x62\x00\x00\x00\x00\x00\x00\x00\x40\x01\x61\x00\x00\x00\x00\x00\x00\xf0\x3f\x0a\x00\x7b\x29\x9e\x12\xce\x94\x08\xd4", 32);

TEST_F(DumpRestore, DumpWritesRedisBytesForSharedEncodings) {
  run({"rpush", "l", "a", "b", "1", "300", "-5"});
  run({"hset", "h", "f", "v", "n", "12", "big", "100000"});
  run({"zadd", "z", "1", "a", "2.5", "b", "-3", "c"});
  run({"sadd", "s", "5", "1", "70000"});
  run({"set", "str", "hello"});
  run({"set", "num", "1234567"});
  run({"config", "set", "zset-max-listpack-entries", "0"});
  run({"zadd", "zs2", "1", "a", "2", "b"});
  EXPECT_EQ(dump("l"), kRedisList);
  EXPECT_EQ(dump("h"), kRedisHash);
  EXPECT_EQ(dump("z"), kRedisZSet);
  EXPECT_EQ(dump("s"), kRedisIntset);
  EXPECT_EQ(dump("str"), kRedisString);
  EXPECT_EQ(dump("num"), kRedisInt);
  EXPECT_EQ(dump("zs2"), kRedisSkiplist);
  EXPECT_REPLY(run({"dump", "missing"}), N());
}

TEST_F(DumpRestore, RestoresRedisPayloads) {
  EXPECT_REPLY(run({"restore", "l", "0", kRedisList}), S("OK"));
  EXPECT_REPLY(run({"lrange", "l", "0", "-1"}), A({B("a"), B("b"), B("1"), B("300"), B("-5")}));
  EXPECT_REPLY(run({"restore", "h", "0", kRedisHash}), S("OK"));
  EXPECT_REPLY(run({"hgetall", "h"}), A({B("f"), B("v"), B("n"), B("12"), B("big"), B("100000")}));
  EXPECT_REPLY(run({"restore", "z", "0", kRedisZSet}), S("OK"));
  EXPECT_REPLY(run({"zrange", "z", "0", "-1", "withscores"}), A({B("c"), B("-3"), B("a"), B("1"), B("b"), B("2.5")}));
  EXPECT_REPLY(run({"restore", "s", "0", kRedisIntset}), S("OK"));
  EXPECT_REPLY(run({"smembers", "s"}), A({B("1"), B("5"), B("70000")}));
  EXPECT_REPLY(run({"object", "encoding", "s"}), B("intset"));
  EXPECT_REPLY(run({"restore", "t", "0", kRedisHashtableSet}), S("OK"));
  EXPECT_REPLY(run({"scard", "t"}), I(2));
  EXPECT_REPLY(run({"restore", "str", "0", kRedisString}), S("OK"));
  EXPECT_REPLY(run({"get", "str"}), B("hello"));
  EXPECT_REPLY(run({"restore", "num", "0", kRedisInt}), S("OK"));
  EXPECT_REPLY(run({"object", "encoding", "num"}), B("int"));
  EXPECT_REPLY(run({"restore", "zs2", "0", kRedisSkiplist}), S("OK"));
  EXPECT_REPLY(run({"zrange", "zs2", "0", "-1", "withscores"}), A({B("a"), B("1"), B("b"), B("2")}));
  EXPECT_REPLY(run({"object", "encoding", "zs2"}), B("listpack"));  // small enough again: converted on load
}

TEST_F(DumpRestore, RoundTripsLargeValuesAndConvertsOnLoad) {
  run({"config", "set", "hash-max-ziplist-entries", "1000000000"});
  run({"config", "set", "hash-max-ziplist-value", "1000000000"});
  run({"hset", "k", "i8", "127", "i16", "32767", "i32", "2147483647", "big", "9223372036854775808", "s14",
       std::string(8191, 'x'), "s32", std::string(65535, 'x'), "neg", "-4096", "neg24", "-8388608"});
  const std::string payload = dump("k");
  run({"config", "set", "hash-max-ziplist-entries", "2"});
  EXPECT_REPLY(run({"restore", "kk", "0", payload}), S("OK"));
  EXPECT_REPLY(run({"object", "encoding", "kk"}), B("hashtable"));
  EXPECT_EQ(to_string(run({"hgetall", "kk"})), to_string(run({"hgetall", "k"})));
  // A packed hash or sorted set converts on its length only: a value over the limit stays packed (7.0.15).
  run({"config", "set", "hash-max-listpack-value", "1000"});
  run({"config", "set", "zset-max-listpack-value", "1000"});
  run({"hset", "long-value", "f", std::string(100, 'y')});
  run({"zadd", "long-member", "1", std::string(100, 'm')});
  run({"config", "set", "hash-max-listpack-value", "64"});
  run({"config", "set", "zset-max-listpack-value", "64"});
  EXPECT_REPLY(run({"restore", "long-value2", "0", dump("long-value")}), S("OK"));
  EXPECT_REPLY(run({"object", "encoding", "long-value2"}), B("listpack"));
  EXPECT_REPLY(run({"restore", "long-member2", "0", dump("long-member")}), S("OK"));
  EXPECT_REPLY(run({"object", "encoding", "long-member2"}), B("listpack"));
  for (int i = 0; i < 3000; ++i) run({"rpush", "biglist", "element-" + std::to_string(i)});
  EXPECT_REPLY(run({"restore", "biglist2", "0", dump("biglist")}), S("OK"));
  EXPECT_EQ(to_string(run({"lrange", "biglist2", "0", "-1"})), to_string(run({"lrange", "biglist", "0", "-1"})));
}

TEST_F(DumpRestore, ErrorsInRedisOrder) {
  run({"set", "taken", "x"});
  const std::string payload = dump("taken");
  EXPECT_REPLY(run({"restore", "taken", "0", payload}), E("BUSYKEY Target key name already exists."));
  EXPECT_REPLY(run({"restore", "taken", "0", payload, "bogus"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"restore", "k", "-1", payload}), E("ERR Invalid TTL value, must be >= 0"));
  EXPECT_REPLY(run({"restore", "k", "x", payload}), E("ERR value is not an integer or out of range"));
  EXPECT_REPLY(run({"restore", "k", "0", payload, "idletime", "-1"}), E("ERR Invalid IDLETIME value, must be >= 0"));
  EXPECT_REPLY(run({"restore", "k", "0", payload, "freq", "256"}), E("ERR Invalid FREQ value, must be >= 0 and <= 255"));
  EXPECT_REPLY(run({"restore", "k", "0", payload, "idletime", "1", "freq", "1"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"restore", "k", "0", "short"}), E("ERR DUMP payload version or checksum are wrong"));
  std::string corrupt = payload;
  corrupt[1] ^= 1;
  EXPECT_REPLY(run({"restore", "k", "0", corrupt}), E("ERR DUMP payload version or checksum are wrong"));
  // A valid footer over a type the mock does not hold (100), and over an empty hash: Redis's "Bad data format".
  std::string unknown_type("\x64", 1);
  append_dump_footer(unknown_type);
  EXPECT_REPLY(run({"restore", "k", "0", unknown_type}), E("ERR Bad data format"));
  std::string empty_hash("\x04\x00", 2);
  append_dump_footer(empty_hash);
  EXPECT_REPLY(run({"restore", "k", "0", empty_hash}), E("ERR Bad data format"));
  EXPECT_REPLY(run({"exists", "k"}), I(0));
  // Ten zero bytes: version 0 and a valid checksum, and an empty string read from the footer itself (as 7.0.15).
  EXPECT_REPLY(run({"restore", "k", "0", std::string(10, '\0')}), S("OK"));
  EXPECT_REPLY(run({"get", "k"}), B(""));
}

TEST_F(DumpRestore, TtlReplaceIdleTimeAndExpiredPayloads) {
  run({"set", "src", "v"});
  const std::string payload = dump("src");
  EXPECT_REPLY(run({"restore", "a", "5000", payload}), S("OK"));
  EXPECT_REPLY(run({"pttl", "a"}), I(5000));
  EXPECT_REPLY(run({"restore", "b", std::to_string(now_ms + 7000), payload, "absttl"}), S("OK"));
  EXPECT_REPLY(run({"pttl", "b"}), I(7000));
  EXPECT_REPLY(run({"restore", "c", "0", payload, "idletime", "100"}), S("OK"));
  EXPECT_REPLY(run({"object", "idletime", "c"}), I(100));
  // A deadline already past: nothing is added, and REPLACE removes the old key.
  EXPECT_REPLY(run({"restore", "c", "1", payload, "absttl", "replace"}), S("OK"));
  EXPECT_REPLY(run({"exists", "c"}), I(0));
  EXPECT_REPLY(run({"restore", "src", "0", payload, "replace", "freq", "5"}), S("OK"));
  // Under an LFU policy IDLETIME is ignored (7.0.15's objectSetLRUOrLFU): the key is as new.
  run({"config", "set", "maxmemory-policy", "allkeys-lfu"});
  EXPECT_REPLY(run({"restore", "g", "0", payload, "idletime", "600"}), S("OK"));
  EXPECT_REPLY(run({"object", "freq", "g"}), I(5));
}

// TTL, PTTL, EXPIRETIME, PEXPIRETIME, EXISTS and TYPE look a key up without touching it (LOOKUP_NOTOUCH in
// 7.0.15's expire.c and db.c), and SCAN and RANDOMKEY only check its expiry (expireIfNeeded): its idle time and its LFU counter stay, so they do not change which key an LRU or
// LFU policy evicts. A lock's EXISTS or PTTL used to make its key look just used. GET does touch it.
TEST_F(DumpRestore, LookupsRedisDoesNotCountLeaveIdleTimeAndFrequency) {
  run({"set", "src", "v"});
  const std::string payload = dump("src");
  EXPECT_REPLY(run({"restore", "idle", "0", payload, "idletime", "100"}), S("OK"));
  for (const char* command : {"ttl", "pttl", "expiretime", "pexpiretime", "exists", "type"}) run({command, "idle"});
  run({"scan", "0", "count", "100"});
  run({"scan", "0", "type", "string"});
  run({"randomkey"});
  EXPECT_REPLY(run({"object", "idletime", "idle"}), I(100));
  run({"get", "idle"});
  EXPECT_REPLY(run({"object", "idletime", "idle"}), I(0));
  run({"config", "set", "maxmemory-policy", "allkeys-lfu"});
  EXPECT_REPLY(run({"restore", "hot", "0", payload, "freq", "5"}), S("OK"));
  for (const char* command : {"ttl", "pttl", "expiretime", "pexpiretime", "exists", "type"}) run({command, "hot"});
  EXPECT_REPLY(run({"object", "freq", "hot"}), I(5));  // at 5 every counted access adds one (p = 1)
  run({"get", "hot"});
  EXPECT_REPLY(run({"object", "freq", "hot"}), I(6));
}

TEST_F(DumpRestore, CorruptBodiesWithValidFootersAreRefusedOrLoaded) {
  // Every byte of Redis's payloads set to a few values, and every truncation, under a recomputed footer: the
  // reader must answer OK or "Bad data format", never read past the payload or loop.
  const unsigned char kProbes[] = {0x00, 0x01, 0x3f, 0x40, 0x7f, 0x80, 0xc3, 0xf0, 0xfe, 0xff};
  for (const std::string* payload : {&kRedisList, &kRedisHash, &kRedisZSet, &kRedisIntset, &kRedisSkiplist}) {
    const std::string body = payload->substr(0, payload->size() - 10);
    for (std::size_t at = 0; at < body.size(); ++at) {
      for (unsigned char probe : kProbes) {
        std::string corrupt = body;
        corrupt[at] = static_cast<char>(probe);
        append_dump_footer(corrupt);
        const Reply reply = run({"restore", "fuzzed", "0", corrupt, "replace"});
        EXPECT_TRUE(reply == S("OK") || reply == E("ERR Bad data format")) << to_string(reply);
      }
      std::string truncated = body.substr(0, at);
      append_dump_footer(truncated);
      const Reply reply = run({"restore", "fuzzed", "0", truncated, "replace"});
      EXPECT_TRUE(reply == S("OK") || reply == E("ERR Bad data format")) << to_string(reply);
    }
  }
}

TEST_F(DumpRestore, InfoStatsNamesTheDumpCounters) {
  // unit/dump reads migrate_cached_sockets; the mock has no MIGRATE and validates payloads without counting.
  const std::string stats = run({"info", "stats"}).text;
  EXPECT_NE(stats.find("\r\nmigrate_cached_sockets:0\r\n"), std::string::npos) << stats;
  EXPECT_NE(stats.find("\r\ndump_payload_sanitizations:0\r\n"), std::string::npos) << stats;
}

}  // namespace
}  // namespace lockcheck::mock::testing
