// KEYS, SCAN, HSCAN, RANDOMKEY, INCRBYFLOAT and HINCRBYFLOAT (issue 16), with redis-server 7.0.15's texts.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "mock_test_support.hpp"

namespace lockcheck::mock::testing {
namespace {

#define EXPECT_REPLY(actual, expected) EXPECT_EQ(to_string(actual), to_string(expected))

std::set<std::string> names_of(const Reply& array) {
  std::set<std::string> names;
  for (const Reply& element : array.elements) names.insert(element.text);
  return names;
}

TEST(KeysScan, KeysMatchesAndSkipsExpired) {
  MockFixture f;
  f.run({"SET", "lock:a", "1"});
  f.run({"SET", "lock:b", "1", "PX", "10"});
  f.run({"SET", "other", "1"});
  f.now_ms += 20;
  EXPECT_EQ(names_of(f.run({"KEYS", "lock:*"})), (std::set<std::string>{"lock:a"}));
  EXPECT_EQ(names_of(f.run({"KEYS", "*"})), (std::set<std::string>{"lock:a", "other"}));
}

TEST(KeysScan, ScanIsCompleteUnderChangesAndDeterministic) {
  MockFixture f;
  for (int i = 0; i < 200; ++i) f.run({"SET", "k" + std::to_string(i), "v"});
  std::set<std::string> seen;
  std::string cursor = "0";
  std::string first_cursor;
  for (int call = 0; call < 1000; ++call) {
    const Reply page = f.run({"SCAN", cursor, "COUNT", "7"});
    ASSERT_EQ(page.elements.size(), 2u);
    cursor = page.elements[0].text;
    if (call == 0) first_cursor = cursor;
    for (const Reply& key : page.elements[1].elements) seen.insert(key.text);
    // Churn while scanning: new keys may or may not be seen, but the 200 first ones must all be.
    f.run({"SET", "new" + std::to_string(call), "v"});
    f.run({"DEL", "new" + std::to_string(call / 2)});
    if (cursor == "0") break;
  }
  EXPECT_EQ(cursor, "0");
  for (int i = 0; i < 200; ++i) EXPECT_EQ(seen.count("k" + std::to_string(i)), 1u) << i;
  MockFixture replay;
  for (int i = 0; i < 200; ++i) replay.run({"SET", "k" + std::to_string(i), "v"});
  EXPECT_EQ(replay.run({"SCAN", "0", "COUNT", "7"}).elements[0].text, first_cursor);
}

TEST(KeysScan, ScanOptionsAndErrors) {
  MockFixture f;
  f.run({"SET", "s", "1"});
  f.run({"HSET", "h", "f", "v"});
  f.run({"SET", "gone", "1", "PX", "10"});
  f.now_ms += 20;
  EXPECT_REPLY(f.run({"SCAN", "0", "COUNT", "100", "TYPE", "hash"}), A({B("0"), A({B("h")})}));
  EXPECT_REPLY(f.run({"SCAN", "0", "COUNT", "100", "MATCH", "s*"}), A({B("0"), A({B("s")})}));
  EXPECT_REPLY(f.run({"SCAN", "x"}), E("ERR invalid cursor"));
  EXPECT_REPLY(f.run({"SCAN", " 1"}), E("ERR invalid cursor"));
  EXPECT_REPLY(f.run({"SCAN", "99999999999999999999"}), E("ERR invalid cursor"));
  EXPECT_REPLY(f.run({"SCAN", "0", "COUNT", "0"}), E("ERR syntax error"));
  EXPECT_REPLY(f.run({"SCAN", "0", "COUNT", "x"}), E("ERR value is not an integer or out of range"));
  EXPECT_REPLY(f.run({"SCAN", "0", "MATCH"}), E("ERR syntax error"));
  EXPECT_EQ(f.run({"DBSIZE"}), I(2));  // the SCAN reclaimed the expired key
}

TEST(KeysScan, HscanSmallHashIsWholeInInsertionOrder) {
  MockFixture f;
  f.run({"HSET", "h", "b", "1", "a", "2", "c", "3"});
  EXPECT_REPLY(f.run({"HSCAN", "h", "0"}), A({B("0"), A({B("b"), B("1"), B("a"), B("2"), B("c"), B("3")})}));
  EXPECT_REPLY(f.run({"HSCAN", "h", "0", "MATCH", "a"}), A({B("0"), A({B("a"), B("2")})}));
  EXPECT_REPLY(f.run({"HSCAN", "nokey", "0", "BAD"}), A({B("0"), A({})}));
  EXPECT_REPLY(f.run({"HSCAN", "h", "0", "TYPE", "hash"}), E("ERR syntax error"));
  EXPECT_REPLY(f.run({"HSCAN", "h", "x"}), E("ERR invalid cursor"));
  f.run({"SET", "s", "1"});
  EXPECT_REPLY(f.run({"HSCAN", "s", "0"}), E("WRONGTYPE Operation against a key holding the wrong kind of value"));
}

TEST(KeysScan, HscanLargeHashPagesEveryField) {
  MockFixture f;
  for (int i = 0; i < 300; ++i) f.run({"HSET", "h", "f" + std::to_string(i), std::to_string(i)});
  std::set<std::string> fields;
  std::string cursor = "0";
  for (int call = 0; call < 1000; ++call) {
    const Reply page = f.run({"HSCAN", "h", cursor, "COUNT", "20"});
    cursor = page.elements[0].text;
    for (std::size_t i = 0; i < page.elements[1].elements.size(); i += 2) fields.insert(page.elements[1].elements[i].text);
    if (cursor == "0") break;
  }
  EXPECT_EQ(fields.size(), 300u);
}

TEST(KeysScan, RandomkeyIsSeededAndSkipsExpired) {
  MockFixture a, b;
  for (MockFixture* f : {&a, &b}) {
    for (int i = 0; i < 50; ++i) f->run({"SET", "k" + std::to_string(i), "v"});
  }
  for (int i = 0; i < 20; ++i) EXPECT_EQ(a.run({"RANDOMKEY"}), b.run({"RANDOMKEY"}));
  MockFixture f;
  EXPECT_REPLY(f.run({"RANDOMKEY"}), N());
  f.run({"SET", "gone", "1", "PX", "10"});
  f.run({"SET", "kept", "1"});
  f.now_ms += 20;
  for (int i = 0; i < 5; ++i) EXPECT_REPLY(f.run({"RANDOMKEY"}), B("kept"));
}

TEST(Floats, IncrbyfloatFormatsAsRedis) {
  MockFixture f;
  EXPECT_REPLY(f.run({"INCRBYFLOAT", "x", "10.5"}), B("10.5"));
  EXPECT_REPLY(f.run({"INCRBYFLOAT", "x", "0.1"}), B("10.6"));
  EXPECT_REPLY(f.run({"INCRBYFLOAT", "y", "5.0e3"}), B("5000"));
  EXPECT_REPLY(f.run({"INCRBYFLOAT", "y", "-5000"}), B("0"));
  EXPECT_REPLY(f.run({"INCRBYFLOAT", "z", "-0.0"}), B("0"));
  EXPECT_REPLY(f.run({"INCRBYFLOAT", "x", "nan"}), E("ERR value is not a valid float"));
  EXPECT_REPLY(f.run({"INCRBYFLOAT", "x", "inf"}), E("ERR increment would produce NaN or Infinity"));
  EXPECT_REPLY(f.run({"INCRBYFLOAT", "x", " 1"}), E("ERR value is not a valid float"));
  EXPECT_REPLY(f.run({"INCRBYFLOAT", "x", "1e5000"}), E("ERR value is not a valid float"));
  f.run({"SET", "t", "abc"});
  EXPECT_REPLY(f.run({"INCRBYFLOAT", "t", "1"}), E("ERR value is not a valid float"));
  f.run({"HSET", "h", "f", "1"});
  EXPECT_REPLY(f.run({"INCRBYFLOAT", "h", "1"}), E("WRONGTYPE Operation against a key holding the wrong kind of value"));
  f.run({"SET", "ttl", "1", "PX", "5000"});
  EXPECT_REPLY(f.run({"INCRBYFLOAT", "ttl", "1.5"}), B("2.5"));
  EXPECT_REPLY(f.run({"PTTL", "ttl"}), I(5000));  // the deadline stays
}

TEST(Floats, HincrbyfloatFormatsAsRedis) {
  MockFixture f;
  EXPECT_REPLY(f.run({"HINCRBYFLOAT", "h", "f", "10.5"}), B("10.5"));
  EXPECT_REPLY(f.run({"HINCRBYFLOAT", "h", "f", "5.0e3"}), B("5010.5"));
  EXPECT_REPLY(f.run({"HINCRBYFLOAT", "h", "f", "inf"}), E("ERR value is NaN or Infinity"));
  EXPECT_REPLY(f.run({"HINCRBYFLOAT", "h", "f", "nan"}), E("ERR value is not a valid float"));
  EXPECT_REPLY(f.run({"HINCRBYFLOAT", "h", "f", "1.7976931348623157e308"}), B("179769313486231569995921046774104434048386446944329178485314420765176628523124396354701868608387085564428793419425520689308708363451136055357897278026477617073498977686288394835618163294045594434929537447290627480669417384648879122776218333598953852832103282504751611691208117720159985926376802466863339536384"));
  f.run({"HSET", "h", "s", "abc"});
  EXPECT_REPLY(f.run({"HINCRBYFLOAT", "h", "s", "1"}), E("ERR hash value is not a float"));
  f.run({"SET", "str", "1"});
  EXPECT_REPLY(f.run({"HINCRBYFLOAT", "str", "f", "1"}), E("WRONGTYPE Operation against a key holding the wrong kind of value"));
}

}  // namespace
}  // namespace lockcheck::mock::testing
