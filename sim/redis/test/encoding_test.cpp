// OBJECT ENCODING and friends: the encodings Redis 7.0.15 reports and its conversion rules (checked against
// redis-server 7.0.15 by hand and by the differential test's OBJECT ENCODING steps).
#include <gtest/gtest.h>

#include "mock_test_support.hpp"

namespace lockcheck::mock::testing {
namespace {

class Encodings : public ::testing::Test, public MockFixture {
 protected:
  std::string encoding(const std::string& key) {
    const Reply reply = run({"object", "encoding", key});
    return reply.kind == Reply::Kind::bulk ? reply.text : "(" + to_string(reply) + ")";
  }
  void config(const std::string& name, const std::string& value) {
    ASSERT_EQ(to_string(run({"config", "set", name, value})), to_string(S("OK")));
  }
};

TEST_F(Encodings, StringsAreIntEmbstrOrRaw) {
  run({"set", "n", "12345"});
  run({"set", "neg", "-9223372036854775808"});
  run({"set", "lead", "012"});
  run({"set", "e", std::string(44, 'x')});
  run({"set", "r", std::string(45, 'x')});
  EXPECT_EQ(encoding("n"), "int");
  EXPECT_EQ(encoding("neg"), "int");
  EXPECT_EQ(encoding("lead"), "embstr");
  EXPECT_EQ(encoding("e"), "embstr");
  EXPECT_EQ(encoding("r"), "raw");
  run({"append", "e", ""});  // any APPEND to an existing string makes it raw
  EXPECT_EQ(encoding("e"), "raw");
  run({"append", "fresh", "7"});  // a new key takes the argument as SET would
  EXPECT_EQ(encoding("fresh"), "int");
  run({"set", "f", "1.5"});
  run({"incrbyfloat", "f", "1.5"});  // "3", but never tried as an integer
  EXPECT_EQ(encoding("f"), "embstr");
  run({"append", "i", "1"});
  run({"append", "i", "0"});
  EXPECT_EQ(encoding("i"), "raw");
  run({"incr", "i"});
  EXPECT_EQ(encoding("i"), "int");
}

// SETBIT, SETRANGE and BITOP build a growable string (createObject / dbUnshareStringValue in 7.0.15): `raw`
// however short, where SET of the same bytes would be embstr or int (found by the differential test).
TEST_F(Encodings, BitAndRangeWritesLeaveRawStrings) {
  run({"setbit", "new_bits", "3", "1"});
  EXPECT_EQ(encoding("new_bits"), "raw");
  run({"set", "old_bits", "abc"});
  run({"setbit", "old_bits", "1", "1"});
  EXPECT_EQ(encoding("old_bits"), "raw");
  run({"setrange", "new_range", "0", "12"});
  EXPECT_EQ(encoding("new_range"), "raw");
  run({"set", "old_range", "5"});
  run({"setrange", "old_range", "0", "7"});
  EXPECT_EQ(encoding("old_range"), "raw");
  run({"set", "untouched", "5"});
  run({"setrange", "untouched", "0", ""});  // nothing written: Redis returns before unsharing
  EXPECT_EQ(encoding("untouched"), "int");
  run({"mset", "h1", "b"});
  run({"bitop", "not", "k1", "h1"});
  EXPECT_EQ(encoding("k1"), "raw");
}

TEST_F(Encodings, MissingKeySubcommandErrorsAndHelp) {
  EXPECT_EQ(to_string(run({"object", "encoding", "none"})), to_string(N()));
  EXPECT_EQ(to_string(run({"object", "foo", "x"})), to_string(E("ERR unknown subcommand 'foo'. Try OBJECT HELP.")));
  EXPECT_EQ(to_string(run({"object", "encoding"})),
            to_string(E("ERR wrong number of arguments for 'object|encoding' command")));
  EXPECT_EQ(to_string(run({"object"})), to_string(E("ERR wrong number of arguments for 'object' command")));
  const Reply help = run({"object", "help"});
  ASSERT_EQ(help.elements.size(), 15u);
  EXPECT_EQ(help.elements.back().text, "    Prints this help.");
}

TEST_F(Encodings, ListsAreAlwaysQuicklist) {
  run({"rpush", "l", "a"});
  EXPECT_EQ(encoding("l"), "quicklist");
  run({"rpush", "l", std::string(100, 'x')});
  EXPECT_EQ(encoding("l"), "quicklist");
}

TEST_F(Encodings, HashesConvertOnEntriesOrValueSizeAndStay) {
  config("hash-max-ziplist-entries", "2");
  config("hash-max-listpack-value", "4");
  run({"hset", "h", "a", "1", "b", "2"});
  EXPECT_EQ(encoding("h"), "listpack");
  run({"hset", "h", "c", "3"});
  EXPECT_EQ(encoding("h"), "hashtable");
  run({"hdel", "h", "c", "b"});
  EXPECT_EQ(encoding("h"), "hashtable");  // 7.0 never converts back
  run({"hset", "v", "a", "12345"});
  EXPECT_EQ(encoding("v"), "hashtable");
  run({"hset", "w", "abcd", "1234"});
  EXPECT_EQ(encoding("w"), "listpack");
}

TEST_F(Encodings, SetsAreIntsetUntilANonIntegerOrTooMany) {
  config("set-max-intset-entries", "3");
  run({"sadd", "s", "1", "2", "3"});
  EXPECT_EQ(encoding("s"), "intset");
  run({"sadd", "s", "4"});
  EXPECT_EQ(encoding("s"), "hashtable");
  run({"srem", "s", "4"});
  EXPECT_EQ(encoding("s"), "hashtable");
  run({"sadd", "t", "1"});
  run({"sadd", "t", "a"});
  EXPECT_EQ(encoding("t"), "hashtable");
  run({"sadd", "u", "a"});
  EXPECT_EQ(encoding("u"), "hashtable");
  run({"sadd", "big", "9223372036854775808"});  // past 64 bits: not an integer
  EXPECT_EQ(encoding("big"), "hashtable");
  run({"sinterstore", "dst", "s", "s"});  // a generated set starts as an intset
  EXPECT_EQ(encoding("dst"), "intset");
}

TEST_F(Encodings, SortedSetsAreListpackUntilTooManyOrTooLong) {
  config("zset-max-ziplist-entries", "2");
  config("zset-max-listpack-value", "3");
  run({"zadd", "z", "1", "a", "2", "b"});
  EXPECT_EQ(encoding("z"), "listpack");
  run({"zadd", "z", "3", "c"});
  EXPECT_EQ(encoding("z"), "skiplist");
  run({"zadd", "y", "1", "abcd"});
  EXPECT_EQ(encoding("y"), "skiplist");
  config("zset-max-listpack-entries", "0");
  run({"zadd", "x", "1", "a"});
  EXPECT_EQ(encoding("x"), "skiplist");
}

TEST_F(Encodings, CopyRenameAndMoveKeepTheEncoding) {
  config("hash-max-listpack-entries", "1");
  run({"hset", "h", "a", "1", "b", "2"});
  run({"hdel", "h", "b"});
  run({"copy", "h", "c"});
  EXPECT_EQ(encoding("c"), "hashtable");
  run({"rename", "c", "r"});
  EXPECT_EQ(encoding("r"), "hashtable");
  run({"move", "r", "3"});
  run({"select", "3"});
  EXPECT_EQ(encoding("r"), "hashtable");
  run({"set", "s", "x"});
  run({"append", "s", "y"});
  run({"rename", "s", "t"});
  EXPECT_EQ(encoding("t"), "raw");
}

TEST_F(Encodings, ScriptCommandsConvertOneByOne) {
  config("hash-max-listpack-entries", "1");
  eval("redis.call('hset', KEYS[1], 'a', 1, 'b', 2); redis.call('hdel', KEYS[1], 'b')", {"h"});
  EXPECT_EQ(encoding("h"), "hashtable");
}

TEST_F(Encodings, RefcountIdletimeAndFreq) {
  run({"set", "shared", "100"});
  run({"set", "own", "10000"});
  EXPECT_EQ(to_string(run({"object", "refcount", "shared"})), to_string(I(2147483647)));
  EXPECT_EQ(to_string(run({"object", "refcount", "own"})), to_string(I(1)));
  now_ms += 5'500;
  run({"get", "own"});
  now_ms += 2'000;
  EXPECT_EQ(to_string(run({"object", "idletime", "shared"})), to_string(I(7)));
  EXPECT_EQ(to_string(run({"object", "idletime", "own"})), to_string(I(2)));
  EXPECT_EQ(to_string(run({"object", "idletime", "own"})), to_string(I(2)));  // asking is no access
  EXPECT_EQ(to_string(run({"object", "freq", "own"})),
            to_string(E("ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please note that "
                        "when switching between policies at runtime LRU and LFU data will take some time to adjust.")));
  config("maxmemory-policy", "allkeys-lfu");
  EXPECT_EQ(to_string(run({"object", "idletime", "own"})),
            to_string(E("ERR An LFU maxmemory policy is selected, idle time not tracked. Please note that when "
                        "switching between policies at runtime LRU and LFU data will take some time to adjust.")));
  EXPECT_EQ(to_string(run({"object", "freq", "own"})), to_string(I(5)));
}

}  // namespace
}  // namespace lockcheck::mock::testing
