// Stream consumer groups: XGROUP, XREADGROUP (new entries and history), XACK, XPENDING, XCLAIM, XAUTOCLAIM,
// XINFO GROUPS/CONSUMERS/STREAM FULL (RESP2: maps as flat arrays); replies recorded from redis-server 7.0.15,
// times on the node clock.
#include <gtest/gtest.h>

#include "mock_test_support.hpp"

namespace lockcheck::mock::testing {
namespace {

#define EXPECT_REPLY(actual, expected) EXPECT_EQ(to_string(actual), to_string(expected)) << "reply kinds must match too"

class StreamGroups : public ::testing::Test, public MockFixture {
 protected:
  StreamGroups() {
    run({"xadd", "s", "1-1", "a", "1"});
    run({"xadd", "s", "1-2", "b", "2"});
    run({"xadd", "s", "2-0", "c", "3"});
  }
};

Reply Entry(const std::string& id, const std::string& field, const std::string& value) {
  return A({B(id), A({B(field), B(value)})});
}

TEST_F(StreamGroups, ReadAckPendingAndHistory) {
  EXPECT_REPLY(run({"xgroup", "create", "s", "g", "0"}), S("OK"));
  EXPECT_REPLY(run({"xgroup", "create", "s", "g", "0"}), E("BUSYGROUP Consumer Group name already exists"));
  EXPECT_REPLY(run({"xreadgroup", "group", "g", "alice", "count", "2", "streams", "s", ">"}),
               A({A({B("s"), A({Entry("1-1", "a", "1"), Entry("1-2", "b", "2")})})}));
  EXPECT_REPLY(run({"xpending", "s", "g"}), A({I(2), B("1-1"), B("1-2"), A({A({B("alice"), B("2")})})}));
  EXPECT_REPLY(run({"xack", "s", "g", "1-1", "9-9"}), I(1));
  now_ms += 34;
  EXPECT_REPLY(run({"xpending", "s", "g", "-", "+", "10", "alice"}), A({A({B("1-2"), B("alice"), I(34), I(1)})}));
  EXPECT_REPLY(run({"xpending", "s", "g", "IDLE", "35", "-", "+", "10"}), A({}));
  EXPECT_REPLY(run({"xdel", "s", "1-2"}), I(1));
  // History: a deleted pending entry comes back as [id, nil].
  EXPECT_REPLY(run({"xreadgroup", "group", "g", "alice", "streams", "s", "0"}),
               A({A({B("s"), A({A({B("1-2"), Reply::null_array()})})})}));
  EXPECT_REPLY(run({"xinfo", "groups", "s"}),
               A({A({B("name"), B("g"), B("consumers"), I(1), B("pending"), I(1), B("last-delivered-id"),
                              B("1-2"), B("entries-read"), I(2), B("lag"), N()})}));
  EXPECT_REPLY(run({"xautoclaim", "s", "g", "bob", "0", "0"}), A({B("0-0"), A({}), A({B("1-2")})}));
  EXPECT_REPLY(run({"xclaim", "s", "g", "carol", "0", "2-0", "force", "justid"}), A({B("2-0")}));
  EXPECT_REPLY(run({"xpending", "s", "g"}), A({I(1), B("2-0"), B("2-0"), A({A({B("carol"), B("1")})})}));
  EXPECT_REPLY(run({"xgroup", "delconsumer", "s", "g", "carol"}), I(1));
  EXPECT_REPLY(run({"xpending", "s", "g"}), A({I(0), N(), N(), Reply::null_array()}));
}

TEST_F(StreamGroups, ErrorsInRedisOrder) {
  EXPECT_REPLY(run({"xreadgroup", "group", "g", "c", "streams", "s", "$"}),
               E("NOGROUP No such key 's' or consumer group 'g' in XREADGROUP with GROUP option"));
  run({"xgroup", "create", "s", "g", "$"});
  EXPECT_REPLY(run({"xreadgroup", "group", "g", "c", "streams", "s", "$"}),
               E("ERR The $ ID is meaningless in the context of XREADGROUP: you want to read the history of this "
                 "consumer by specifying a proper ID, or use the > ID to get new messages. The $ ID would just return "
                 "an empty result set."));
  EXPECT_REPLY(run({"xread", "streams", "s", ">"}),
               E("ERR The > ID can be specified only when calling XREADGROUP using the GROUP <group> <consumer> option."));
  EXPECT_REPLY(run({"xread", "group", "a", "b", "streams", "s", "0"}),
               E("ERR The GROUP option is only supported by XREADGROUP. You called XREAD instead."));
  EXPECT_REPLY(run({"xread", "streams", "s", "0", "1"}),
               E("ERR Unbalanced XREAD list of streams: for each stream key an ID or '$' must be specified."));
  EXPECT_REPLY(run({"xgroup", "create", "s", "g2", "0", "foo"}),
               E("ERR unknown subcommand or wrong number of arguments for 'create'. Try XGROUP HELP."));
  EXPECT_REPLY(run({"xgroup", "create", "s", "g3", "0", "entriesread", "-5"}),
               E("ERR value for ENTRIESREAD must be positive or -1"));
  EXPECT_REPLY(run({"xgroup", "create", "nokey", "g", "0"}),
               E("ERR The XGROUP subcommand requires the key to exist. Note that for CREATE you may want to use the "
                 "MKSTREAM option to create an empty stream automatically."));
  EXPECT_REPLY(run({"xgroup", "setid", "s", "nog", "0"}), E("NOGROUP No such consumer group 'nog' for key name 's'"));
  EXPECT_REPLY(run({"xgroup", "create", "s", "g"}), E("ERR wrong number of arguments for 'xgroup|create' command"));
  EXPECT_REPLY(run({"xinfo", "stream", "s", "foo"}),
               E("ERR unknown subcommand or wrong number of arguments for 'stream'. Try XINFO HELP."));
  EXPECT_REPLY(run({"xinfo", "foo", "s"}), E("ERR unknown subcommand 'foo'. Try XINFO HELP."));
  EXPECT_REPLY(run({"xclaim", "s", "nog", "c", "0", "1-1"}), E("NOGROUP No such key 's' or consumer group 'nog'"));
  EXPECT_REPLY(run({"xclaim", "s", "g", "c", "x", "1-1"}), E("ERR Invalid min-idle-time argument for XCLAIM"));
  EXPECT_REPLY(run({"xclaim", "s", "g", "c", "0", "1-1", "bogus"}), E("ERR Unrecognized XCLAIM option 'bogus'"));
  EXPECT_REPLY(run({"xautoclaim", "s", "g", "c", "0", "0", "count", "0"}), E("ERR COUNT must be > 0"));
}

TEST_F(StreamGroups, InfoStreamFullListsGroupsConsumersAndPending) {
  run({"xgroup", "create", "s", "g", "0"});
  run({"xreadgroup", "group", "g", "alice", "count", "1", "streams", "s", ">"});
  const Reply consumer = A({B("name"), B("alice"), B("seen-time"), I(now_ms), B("pel-count"), I(1), B("pending"),
                                     A({A({B("1-1"), I(now_ms), I(1)})})});
  EXPECT_REPLY(run({"xinfo", "stream", "s", "full", "count", "1"}),
               A({B("length"), I(3), B("radix-tree-keys"), I(1), B("radix-tree-nodes"), I(2),
                           B("last-generated-id"), B("2-0"), B("max-deleted-entry-id"), B("0-0"), B("entries-added"), I(3),
                           B("recorded-first-entry-id"), B("1-1"), B("entries"), A({Entry("1-1", "a", "1")}), B("groups"),
                           A({A({B("name"), B("g"), B("last-delivered-id"), B("1-1"), B("entries-read"), I(1),
                                          B("lag"), I(2), B("pel-count"), I(1), B("pending"),
                                          A({A({B("1-1"), B("alice"), I(now_ms), I(1)})}), B("consumers"),
                                          A({consumer})})})}));
  now_ms += 5;
  EXPECT_REPLY(run({"xinfo", "consumers", "s", "g"}),
               A({A({B("name"), B("alice"), B("pending"), I(1), B("idle"), I(5)})}));
}

}  // namespace
}  // namespace lockcheck::mock::testing
