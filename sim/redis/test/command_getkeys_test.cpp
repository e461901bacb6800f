// COMMAND GETKEYS / GETKEYSANDFLAGS: keys and errors as redis-server 7.0.15 gave them (checked with redis-cli).
#include <gtest/gtest.h>

#include "mock_test_support.hpp"

namespace lockcheck::mock::testing {
namespace {

#define EXPECT_REPLY(actual, expected) EXPECT_EQ(to_string(actual), to_string(expected)) << "reply kinds must match too"

class CommandGetkeys : public ::testing::Test, public MockFixture {};

TEST_F(CommandGetkeys, FindsKeysByPositionAndByNumkeys) {
  EXPECT_REPLY(run({"command", "getkeys", "fcall", "test", "1", "x", "foo"}), A({B("x")}));
  EXPECT_REPLY(run({"command", "getkeys", "fcall_ro", "test", "1", "x", "foo"}), A({B("x")}));
  EXPECT_REPLY(run({"command", "getkeys", "eval", "s", "2", "a", "b", "c"}), A({B("a"), B("b")}));
  EXPECT_REPLY(run({"command", "getkeys", "eval", "s", "2", "a"}), A({}));  // too few keys: none, not an error
  EXPECT_REPLY(run({"command", "getkeys", "eval", "s", "x", "a"}), A({}));
  EXPECT_REPLY(run({"command", "getkeys", "mset", "a", "1", "b"}), A({B("a"), B("b")}));
  EXPECT_REPLY(run({"command", "getkeys", "bitop", "and", "d", "a", "b"}), A({B("d"), B("a"), B("b")}));
  EXPECT_REPLY(run({"command", "getkeys", "blpop", "a", "b", "0"}), A({B("a"), B("b")}));
  EXPECT_REPLY(run({"command", "getkeys", "GET", "k"}), A({B("k")}));
  EXPECT_REPLY(run({"command", "getkeysandflags", "get", "k"}), A({A({B("k"), A({S("RO")})})}));  // a set in RESP3
}

// Keys after a count and nothing before it: 7.0.15 follows the count (redis-cli, this session); the mock said
// "The command has no key arguments". A count that does not fit is an error for them, as for SINTERCARD.
TEST_F(CommandGetkeys, CountedKeysWithNoRangeBeforeThemAreFound) {
  for (const char* name : {"zunion", "zinter", "zdiff", "zintercard", "sintercard"}) {
    EXPECT_REPLY(run({"command", "getkeys", name, "2", "a", "b"}), A({B("a"), B("b")})) << name;
    EXPECT_REPLY(run({"command", "getkeys", name, "5", "a", "b"}), E("ERR Invalid arguments specified for command")) << name;
  }
  EXPECT_REPLY(run({"command", "getkeys", "lmpop", "2", "a", "b", "left"}), A({B("a"), B("b")}));
  EXPECT_REPLY(run({"command", "getkeys", "zmpop", "2", "a", "b", "min"}), A({B("a"), B("b")}));
  EXPECT_REPLY(run({"command", "getkeys", "blmpop", "0", "2", "a", "b", "left"}), A({B("a"), B("b")}));
  EXPECT_REPLY(run({"command", "getkeys", "bzmpop", "0", "2", "a", "b", "min"}), A({B("a"), B("b")}));
  EXPECT_REPLY(run({"command", "getkeys", "zunion", "abc", "a"}), E("ERR Invalid arguments specified for command"));
  EXPECT_REPLY(run({"command", "getkeys", "zunionstore", "d", "2", "a", "b"}), A({B("d"), B("a"), B("b")}));
  EXPECT_REPLY(run({"command", "getkeys", "zunionstore", "d", "5", "a"}), E("ERR Invalid arguments specified for command"));
}

TEST_F(CommandGetkeys, ErrorsInRedisOrder) {
  EXPECT_REPLY(run({"command", "getkeys", "get"}), E("ERR wrong number of arguments for 'command|getkeys' command"));
  EXPECT_REPLY(run({"command", "getkeys", "get", "a", "b"}), E("ERR Invalid number of arguments specified for command"));
  EXPECT_REPLY(run({"command", "getkeys", "nosuch", "a"}), E("ERR Invalid command specified"));
  EXPECT_REPLY(run({"command", "getkeys", "config", "get", "x"}), E("ERR The command has no key arguments"));
}

}  // namespace
}  // namespace lockcheck::mock::testing
