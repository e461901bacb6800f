// Streams' entries (XADD, XRANGE, XREVRANGE, XDEL, XTRIM, XSETID, XLEN) and the stream as a key (TYPE, OBJECT
// ENCODING, COPY, RENAME): replies and error texts recorded from redis-server 7.0.15.
#include <gtest/gtest.h>

#include "mock_test_support.hpp"

namespace lockcheck::mock::testing {
namespace {

#define EXPECT_REPLY(actual, expected) EXPECT_EQ(to_string(actual), to_string(expected)) << "reply kinds must match too"

class Streams : public ::testing::Test, public MockFixture {};

Reply Entry(const std::string& id, std::vector<std::string> fields) {
  std::vector<Reply> flat;
  for (std::string& each : fields) flat.push_back(B(std::move(each)));
  return A({B(id), A(std::move(flat))});
}

TEST_F(Streams, XaddGeneratesAndChecksIds) {
  EXPECT_REPLY(run({"xadd", "s", "1-1", "a", "1", "b", "2"}), B("1-1"));
  EXPECT_REPLY(run({"xadd", "s", "1-1", "a", "1"}),
               E("ERR The ID specified in XADD is equal or smaller than the target stream top item"));
  EXPECT_REPLY(run({"xadd", "s", "0-0", "a", "1"}), E("ERR The ID specified in XADD must be greater than 0-0"));
  EXPECT_REPLY(run({"xadd", "s", "2", "c", "3"}), B("2-0"));
  EXPECT_REPLY(run({"xadd", "s", "2-*", "c", "3"}), B("2-1"));
  EXPECT_REPLY(run({"xadd", "s", "5-*", "c", "3"}), B("5-0"));
  EXPECT_REPLY(run({"xadd", "s", "abc", "x", "y"}), E("ERR Invalid stream ID specified as stream command argument"));
  EXPECT_REPLY(run({"xadd", "s", "7", "x"}), E("ERR wrong number of arguments for 'xadd' command"));
  EXPECT_REPLY(run({"xadd", "s", "minid", "1", "maxlen", "2", "8", "x", "y"}),
               E("ERR syntax error, MAXLEN and MINID options at the same time are not compatible"));
  // `*` takes the node clock's millisecond, then the next sequence number within it.
  EXPECT_REPLY(run({"xadd", "s", "*", "f", "v"}), B(std::to_string(now_ms) + "-0"));
  EXPECT_REPLY(run({"xadd", "s", "*", "f", "v"}), B(std::to_string(now_ms) + "-1"));
  EXPECT_REPLY(run({"xadd", "missing", "nomkstream", "*", "f", "v"}), N());
  EXPECT_REPLY(run({"exists", "missing"}), I(0));
  EXPECT_REPLY(run({"xlen", "s"}), I(6));
  EXPECT_REPLY(run({"type", "s"}), S("stream"));
  EXPECT_REPLY(run({"object", "encoding", "s"}), B("stream"));
  run({"set", "str", "x"});
  EXPECT_REPLY(run({"xadd", "str", "*", "f", "v"}), E("WRONGTYPE Operation against a key holding the wrong kind of value"));
}

TEST_F(Streams, RangesInBothDirectionsWithExclusiveBoundsAndCount) {
  run({"xadd", "s", "1-1", "a", "1", "b", "2"});
  run({"xadd", "s", "2-0", "c", "3"});
  run({"xadd", "s", "2-1", "c", "3"});
  EXPECT_REPLY(run({"xrange", "s", "(1-1", "+", "COUNT", "1"}), A({Entry("2-0", {"c", "3"})}));
  EXPECT_REPLY(run({"xrevrange", "s", "+", "-", "count", "2"}), A({Entry("2-1", {"c", "3"}), Entry("2-0", {"c", "3"})}));
  EXPECT_REPLY(run({"xrange", "s", "2", "2"}), A({Entry("2-0", {"c", "3"}), Entry("2-1", {"c", "3"})}));
  EXPECT_REPLY(run({"xrange", "s", "-", "+", "count", "0"}), Reply::null_array());
  EXPECT_REPLY(run({"xrange", "nokey", "-", "+"}), A({}));
  EXPECT_REPLY(run({"xrange", "s", "(-", "+"}), E("ERR Invalid stream ID specified as stream command argument"));
  EXPECT_REPLY(run({"xrange", "s", "(18446744073709551615-18446744073709551615", "+"}),
               E("ERR invalid start ID for the interval"));
  EXPECT_REPLY(run({"xrange", "s", "-", "+", "foo"}), E("ERR syntax error"));
}

TEST_F(Streams, XdelXtrimAndXsetidKeepTheCounters) {
  for (int i = 1; i <= 5; ++i) run({"xadd", "s", std::to_string(i), "f", "v"});
  EXPECT_REPLY(run({"xdel", "s", "2-0", "9-0"}), I(1));
  EXPECT_REPLY(run({"xtrim", "s", "maxlen", "2"}), I(2));
  EXPECT_REPLY(run({"xrange", "s", "-", "+"}), A({Entry("4-0", {"f", "v"}), Entry("5-0", {"f", "v"})}));
  EXPECT_REPLY(run({"xtrim", "s", "maxlen", "1", "limit", "10"}),
               E("ERR syntax error, LIMIT cannot be used without the special ~ option"));
  // Approximate trimming removes whole nodes only: one 100-entry node is kept.
  EXPECT_REPLY(run({"xtrim", "s", "maxlen", "~", "1"}), I(0));
  EXPECT_REPLY(run({"xtrim", "s", "minid", "5"}), I(1));
  EXPECT_REPLY(run({"xinfo", "stream", "s"}),
               A({B("length"), I(1), B("radix-tree-keys"), I(1), B("radix-tree-nodes"), I(2),
                           B("last-generated-id"), B("5-0"), B("max-deleted-entry-id"), B("2-0"), B("entries-added"),
                           I(5), B("recorded-first-entry-id"), B("5-0"), B("groups"), I(0), B("first-entry"),
                           Entry("5-0", {"f", "v"}), B("last-entry"), Entry("5-0", {"f", "v"})}));
  EXPECT_REPLY(run({"xsetid", "s", "1"}), E("ERR The ID specified in XSETID is smaller than the target stream top item"));
  EXPECT_REPLY(run({"xsetid", "s", "9", "entriesadded", "0"}),
               E("ERR The entries_added specified in XSETID is smaller than the target stream length"));
  EXPECT_REPLY(run({"xsetid", "s", "9", "entriesadded", "1", "maxdeletedid", "10"}),
               E("ERR The ID specified in XSETID is smaller than the provided max_deleted_entry_id"));
  EXPECT_REPLY(run({"xsetid", "nokey", "9"}), E("ERR no such key"));
  EXPECT_REPLY(run({"xsetid", "s", "9"}), S("OK"));
  EXPECT_REPLY(run({"xadd", "s", "9", "f", "v"}),
               E("ERR The ID specified in XADD is equal or smaller than the target stream top item"));
}

TEST_F(Streams, ApproximateTrimDropsWholeNodes) {
  run({"config", "set", "stream-node-max-entries", "10"});
  for (int i = 1; i <= 100; ++i) run({"xadd", "s", std::to_string(i), "f", "v"});
  EXPECT_REPLY(run({"xadd", "s", "maxlen", "~", "55", "limit", "30", "101", "f", "v"}), B("101-0"));
  EXPECT_REPLY(run({"xlen", "s"}), I(71));
  EXPECT_REPLY(run({"xtrim", "s", "maxlen", "~", "55"}), I(10));
  EXPECT_REPLY(run({"xlen", "s"}), I(61));
}

// Without LIMIT, ~ trimming stops after 100 nodes' worth of entries; an explicit LIMIT 0 removes that bound.
TEST_F(Streams, ApproximateTrimWithLimitZeroIsUnbounded) {
  run({"config", "set", "stream-node-max-entries", "1"});
  for (int i = 1; i <= 150; ++i) run({"xadd", "s", std::to_string(i), "f", "v"});
  EXPECT_REPLY(run({"xtrim", "s", "maxlen", "~", "0"}), I(100));
  for (int i = 151; i <= 250; ++i) run({"xadd", "s", std::to_string(i), "f", "v"});
  EXPECT_REPLY(run({"xtrim", "s", "maxlen", "~", "0", "limit", "0"}), I(150));
  EXPECT_REPLY(run({"xlen", "s"}), I(0));
}

TEST_F(Streams, CopyRenameAndDelTreatAStreamAsAValue) {
  run({"xadd", "s", "1", "f", "v"});
  run({"xgroup", "create", "s", "g", "0"});
  EXPECT_REPLY(run({"copy", "s", "t"}), I(1));
  const std::string before = to_string(run({"xinfo", "stream", "s", "full"}));
  EXPECT_EQ(to_string(run({"xinfo", "stream", "t", "full"})), before);
  EXPECT_REPLY(run({"del", "s"}), I(1));
  EXPECT_EQ(to_string(run({"xinfo", "stream", "t", "full"})), before);
  EXPECT_REPLY(run({"rename", "t", "u"}), S("OK"));
  EXPECT_REPLY(run({"xlen", "u"}), I(1));
  EXPECT_TRUE(run({"memory", "usage", "u"}).kind == Reply::Kind::integer);
  EXPECT_TRUE(run({"dump", "u"}).kind == Reply::Kind::bulk);  // dump_stream_test.cpp checks its bytes
  // 7.2's stream type (RDB type 21, STREAM_LISTPACKS_3) is refused, as 7.0.15 refuses it.
  EXPECT_TRUE(run({"restore", "v", "0", std::string("\x15\x00\x0a\x00", 4)}).is_error());
}

}  // namespace
}  // namespace lockcheck::mock::testing
