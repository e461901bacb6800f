// SETEX/PSETEX/GETEX/GETSET/APPEND/STRLEN, MGET/MSET/MSETNX/TOUCH/RENAME(NX), EXPIRETIME, HSETNX/HMSET/HKEYS/HVALS/HSTRLEN:
// replies as redis-server 7.0.15 gave them to the same sequence (checked with redis-cli).
#include <gtest/gtest.h>

#include "mock_test_support.hpp"

namespace lockcheck::mock::testing {
namespace {

#define EXPECT_REPLY(actual, expected) EXPECT_EQ(to_string(actual), to_string(expected)) << "reply kinds must match too"

class MoreCommands : public ::testing::Test, public MockFixture {};

TEST_F(MoreCommands, StringsWithTtlsAndLengths) {
  EXPECT_REPLY(run({"setex", "k", "0", "v"}), E("ERR invalid expire time in 'setex' command"));
  EXPECT_REPLY(run({"setex", "k", "abc", "v"}), E("ERR value is not an integer or out of range"));
  EXPECT_REPLY(run({"setex", "k", "-5", "v"}), E("ERR invalid expire time in 'setex' command"));
  EXPECT_REPLY(run({"psetex", "k", "0", "v"}), E("ERR invalid expire time in 'psetex' command"));
  EXPECT_REPLY(run({"psetex", "k", "9223372036854775807", "v"}), E("ERR invalid expire time in 'psetex' command"));
  EXPECT_REPLY(run({"setex", "k", "9223372036854775", "v"}), E("ERR invalid expire time in 'setex' command"));
  EXPECT_REPLY(run({"setex", "k", "100", "v"}), S("OK"));
  EXPECT_REPLY(run({"ttl", "k"}), I(100));
  EXPECT_REPLY(run({"expiretime", "k"}), I((now_ms + 100'000 + 500) / 1000));
  EXPECT_REPLY(run({"pexpiretime", "k"}), I(now_ms + 100'000));
  EXPECT_REPLY(run({"getset", "k", "w"}), B("v"));
  EXPECT_REPLY(run({"ttl", "k"}), I(-1));  // GETSET clears the TTL
  EXPECT_REPLY(run({"expiretime", "k"}), I(-1));
  EXPECT_REPLY(run({"expiretime", "missing"}), I(-2));
  EXPECT_REPLY(run({"getset", "nope", "x"}), N());
  EXPECT_REPLY(run({"append", "k", "xyz"}), I(4));
  EXPECT_REPLY(run({"append", "new", "v"}), I(1));
  EXPECT_REPLY(run({"strlen", "k"}), I(4));
  EXPECT_REPLY(run({"strlen", "missing"}), I(0));
  EXPECT_REPLY(run({"hset", "h", "f", "v"}), I(1));
  EXPECT_REPLY(run({"getset", "h", "x"}), E("WRONGTYPE Operation against a key holding the wrong kind of value"));
  EXPECT_REPLY(run({"strlen", "h"}), E("WRONGTYPE Operation against a key holding the wrong kind of value"));
  EXPECT_REPLY(run({"append", "h", "x"}), E("WRONGTYPE Operation against a key holding the wrong kind of value"));
}

TEST_F(MoreCommands, Getex) {
  EXPECT_REPLY(run({"set", "k", "v"}), S("OK"));
  EXPECT_REPLY(run({"getex", "k", "EX", "100"}), B("v"));
  EXPECT_REPLY(run({"ttl", "k"}), I(100));
  EXPECT_REPLY(run({"getex", "k", "PERSIST"}), B("v"));
  EXPECT_REPLY(run({"ttl", "k"}), I(-1));
  EXPECT_REPLY(run({"getex", "k", "PX", "0"}), E("ERR invalid expire time in 'getex' command"));
  EXPECT_REPLY(run({"getex", "k", "PX", "-1"}), E("ERR invalid expire time in 'getex' command"));
  EXPECT_REPLY(run({"getex", "k", "EX", "9223372036854775"}), E("ERR invalid expire time in 'getex' command"));
  EXPECT_REPLY(run({"getex", "k", "EX", "abc"}), E("ERR value is not an integer or out of range"));
  EXPECT_REPLY(run({"getex", "k", "EX", "10", "PX", "10"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"getex", "k", "FOO"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"getex", "k", "PERSIST", "EX", "10"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"getex", "k", "PXAT", "4102444800000"}), B("v"));
  EXPECT_REPLY(run({"pexpiretime", "k"}), I(4102444800000));
  EXPECT_REPLY(run({"getex", "k"}), B("v"));
  EXPECT_REPLY(run({"getex", "k", "EXAT", "1"}), B("v"));  // a deadline in the past deletes the key
  EXPECT_REPLY(run({"exists", "k"}), I(0));
  EXPECT_REPLY(run({"getex", "nope", "EX", "10"}), N());
  EXPECT_REPLY(run({"getex", "nope", "EX", "-5"}), N());  // the time is checked only for an existing key
  EXPECT_REPLY(run({"getex", "nope", "FOO", "1"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"hset", "h", "f", "v"}), I(1));
  EXPECT_REPLY(run({"getex", "h"}), E("WRONGTYPE Operation against a key holding the wrong kind of value"));
}

TEST_F(MoreCommands, SeveralKeys) {
  EXPECT_REPLY(run({"mset", "a", "1", "b"}), E("ERR wrong number of arguments for 'mset' command"));
  EXPECT_REPLY(run({"mset", "a", "1", "b", "2"}), S("OK"));
  EXPECT_REPLY(run({"hset", "h", "f", "v"}), I(1));
  EXPECT_REPLY(run({"mget", "a", "b", "nope", "h"}), A({B("1"), B("2"), N(), N()}));
  EXPECT_REPLY(run({"msetnx", "a", "1", "c", "3"}), I(0));
  EXPECT_REPLY(run({"exists", "c"}), I(0));
  EXPECT_REPLY(run({"msetnx", "c", "3", "d", "4"}), I(1));
  EXPECT_REPLY(run({"msetnx", "h", "1"}), I(0));
  EXPECT_REPLY(run({"touch", "a", "b", "nope"}), I(2));
  EXPECT_REPLY(run({"rename", "nope", "x"}), E("ERR no such key"));
  EXPECT_REPLY(run({"rename", "nope", "nope"}), E("ERR no such key"));
  EXPECT_REPLY(run({"rename", "a", "a"}), S("OK"));
  EXPECT_REPLY(run({"pexpire", "a", "5000"}), I(1));
  EXPECT_REPLY(run({"rename", "a", "z"}), S("OK"));
  EXPECT_REPLY(run({"pttl", "z"}), I(5000));  // the TTL moves with the value
  EXPECT_REPLY(run({"exists", "a"}), I(0));
  EXPECT_REPLY(run({"rename", "z", "b"}), S("OK"));  // replaces b
  EXPECT_REPLY(run({"get", "b"}), B("1"));
  EXPECT_REPLY(run({"renamenx", "b", "c"}), I(0));
  EXPECT_REPLY(run({"renamenx", "b", "b"}), I(0));
  EXPECT_REPLY(run({"renamenx", "b", "y"}), I(1));
  EXPECT_REPLY(run({"get", "y"}), B("1"));
}

TEST_F(MoreCommands, Hashes) {
  EXPECT_REPLY(run({"hset", "h", "f", "v"}), I(1));
  EXPECT_REPLY(run({"hsetnx", "h", "f", "w"}), I(0));
  EXPECT_REPLY(run({"hsetnx", "h", "g", "w"}), I(1));
  EXPECT_REPLY(run({"hsetnx", "new", "g", "w"}), I(1));
  EXPECT_REPLY(run({"hkeys", "h"}), A({B("f"), B("g")}));
  EXPECT_REPLY(run({"hvals", "h"}), A({B("v"), B("w")}));
  EXPECT_REPLY(run({"hkeys", "nope"}), A({}));
  EXPECT_REPLY(run({"hmset", "h", "a", "1", "b"}), E("ERR wrong number of arguments for 'hmset' command"));
  EXPECT_REPLY(run({"hmset", "h", "a", "1", "b", "2"}), S("OK"));
  EXPECT_REPLY(run({"hstrlen", "h", "f"}), I(1));
  EXPECT_REPLY(run({"hstrlen", "h", "zz"}), I(0));
  EXPECT_REPLY(run({"set", "s", "x"}), S("OK"));
  EXPECT_REPLY(run({"hkeys", "s"}), E("WRONGTYPE Operation against a key holding the wrong kind of value"));
  EXPECT_REPLY(run({"hsetnx", "s", "f", "v"}), E("WRONGTYPE Operation against a key holding the wrong kind of value"));
}

}  // namespace
}  // namespace lockcheck::mock::testing
