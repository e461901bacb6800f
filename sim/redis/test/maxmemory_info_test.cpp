// CONFIG SET maxmemory in bytes is enforced against the mock's used_memory estimate, with Redis 7.0.15's
// order (inside MULTI every queued command is refused while out of memory; EXEC with a deny-oom command is
// aborted), and INFO's commandstats and replication offsets that Redis's own test units read.
#include <gtest/gtest.h>

#include "mock_test_support.hpp"

namespace lockcheck::mock::testing {
namespace {

#define EXPECT_REPLY(actual, expected) EXPECT_EQ(to_string(actual), to_string(expected)) << "reply kinds must match too"

const Reply kOom = E("OOM command not allowed when used memory > 'maxmemory'.");

class Maxmemory : public ::testing::Test, public MockFixture {};

TEST_F(Maxmemory, BytesLimitRefusesWritesAndQueueing) {
  EXPECT_REPLY(run({"multi"}), S("OK"));
  EXPECT_REPLY(run({"set", "x", "1"}), S("QUEUED"));
  Session admin{.client_id = 2};
  EXPECT_REPLY(node.execute({"config", "set", "maxmemory", "1"}, admin), S("OK"));
  EXPECT_REPLY(run({"exec"}),
               E("EXECABORT Transaction discarded because of: OOM command not allowed when used memory > 'maxmemory'."));
  EXPECT_REPLY(run({"ping"}), S("PONG"));
  EXPECT_REPLY(run({"multi"}), S("OK"));
  EXPECT_REPLY(run({"get", "x"}), kOom);  // any queued command while out of memory
  EXPECT_REPLY(run({"discard"}), S("OK"));
  EXPECT_REPLY(run({"multi"}), S("OK"));
  EXPECT_REPLY(run({"set", "x", "1"}), kOom);
  EXPECT_REPLY(run({"exec"}), E("EXECABORT Transaction discarded because of previous errors."));
  EXPECT_REPLY(run({"incr", "n"}), kOom);
  EXPECT_REPLY(run({"del", "x"}), I(0));
  EXPECT_REPLY(eval("#!lua\nreturn 1"), kOom);
  EXPECT_REPLY(eval("#!lua flags=allow-oom\nredis.call('set','x','1') return 1"), I(1));
  EXPECT_REPLY(node.execute({"config", "set", "maxmemory", "0"}, admin), S("OK"));
  EXPECT_REPLY(run({"incr", "n"}), I(1));
}

// The encoding parameters Redis's own list and sorted-set units set first: accepted and shown as 7.0.15 does
// (the mock has no encodings, so they change nothing else).
TEST_F(Maxmemory, ListAndZsetEncodingParametersAreAccepted) {
  EXPECT_REPLY(run({"config", "set", "list-compress-depth", "2"}), S("OK"));
  EXPECT_REPLY(run({"config", "get", "list-compress-depth"}), A({B("list-compress-depth"), B("2")}));
  EXPECT_REPLY(run({"config", "set", "list-max-ziplist-size", "-1"}), S("OK"));
  EXPECT_REPLY(run({"config", "get", "list-max-listpack-size"}), A({B("list-max-listpack-size"), B("-1")}));
  EXPECT_REPLY(run({"config", "set", "zset-max-ziplist-value", "32"}), S("OK"));
  EXPECT_REPLY(run({"config", "get", "zset-max-listpack-value"}), A({B("zset-max-listpack-value"), B("32")}));
}

TEST_F(Maxmemory, MemoryUsageOfAKey) {
  // Redis's Tcl units call MEMORY USAGE for coverage and only need a positive figure (or nil).
  run({"hset", "h", "a", "1"});
  const Reply one_field = run({"memory", "usage", "h"});
  ASSERT_EQ(one_field.kind, Reply::Kind::integer);
  EXPECT_GT(one_field.integer, 0);
  run({"hset", "h", "b", "2"});
  EXPECT_GT(run({"memory", "usage", "h", "samples", "0"}).integer, one_field.integer);
  EXPECT_REPLY(run({"memory", "usage", "none"}), N());
  EXPECT_REPLY(run({"memory", "usage", "h", "samples", "-1"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"memory", "usage", "h", "samples"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"memory", "usage", "h", "samples", "x"}), E("ERR value is not an integer or out of range"));
  EXPECT_REPLY(run({"memory", "usage"}), E("ERR wrong number of arguments for 'memory|usage' command"));
  EXPECT_EQ(run({"memory", "help"}).elements.size(), 14u);
}

TEST(Info, CommandstatsInAllAndReplicationOffsets) {
  MockFixture fixture;
  fixture.run({"set", "k", "v"});
  fixture.run({"get", "k"});
  const std::string all = fixture.run({"info", "all"}).text;
  EXPECT_NE(all.find("# Commandstats\r\ncmdstat_get:calls=1,usec=0,usec_per_call=0.00,rejected_calls=0,failed_calls=0\r\n"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("master_repl_offset:0\r\n"), std::string::npos);
  const std::string plain = fixture.run({"info"}).text;
  EXPECT_EQ(plain.find("cmdstat_"), std::string::npos);
  EXPECT_NE(fixture.run({"info", "commandSTATS"}).text.find("rejected_calls"), std::string::npos);
  fixture.run({"script", "load", "return 1"});
  EXPECT_NE(fixture.run({"info", "memory"}).text.find("number_of_cached_scripts:1\r\n"), std::string::npos);
}

}  // namespace
}  // namespace lockcheck::mock::testing
