// XREAD / XREADGROUP with BLOCK on a node with a hand-driven clock: parked, served by XADD in blocking order,
// timed out on the node clock, never blocking in EXEC, refused in scripts, and (XREADGROUP) woken with an error
// when its key or group goes away — as redis-server 7.0.15 answers.
#include <gtest/gtest.h>

#include "mock_test_support.hpp"

namespace lockcheck::mock::testing {
namespace {

#define EXPECT_REPLY(actual, expected) EXPECT_EQ(to_string(actual), to_string(expected)) << "reply kinds must match too"

class StreamBlocking : public BlockedClientsFixture {};

Reply Read(const std::string& key, const std::string& id, const std::string& field, const std::string& value) {
  return A({A({B(key), A({A({B(id), A({B(field), B(value)})})})})});
}

TEST_F(StreamBlocking, XaddServesParkedReadersInOrder) {
  run({"xadd", "s", "1", "old", "x"});
  node.execute({"xread", "block", "0", "streams", "s", "$"}, second);
  node.execute({"xread", "block", "0", "streams", "other", "s", "$", "$"}, third);
  EXPECT_TRUE(second.blocked);
  EXPECT_NE(run({"info", "clients"}).text.find("blocked_clients:2"), std::string::npos);
  run({"xadd", "s", "2", "f", "v"});
  ASSERT_EQ(late.size(), 2u);
  EXPECT_EQ(late[0], late_reply(2, Read("s", "2-0", "f", "v")));
  EXPECT_EQ(late[1], late_reply(3, Read("s", "2-0", "f", "v")));
  EXPECT_FALSE(second.blocked);
}

TEST_F(StreamBlocking, TimeoutOnTheNodeClockAndClientUnblock) {
  node.execute({"xread", "block", "100", "streams", "s", "$"}, second);
  node.execute({"xread", "block", "0", "streams", "s", "$"}, third);
  now_ms += 100;
  run({"ping"});
  EXPECT_TRUE(late.empty());
  now_ms += 1;
  node.expire_blocked();
  ASSERT_EQ(late.size(), 1u);
  EXPECT_EQ(late[0], late_reply(2, Reply::null_array()));
  EXPECT_REPLY(run({"client", "unblock", "3"}), I(1));
  EXPECT_EQ(late.at(1), late_reply(3, Reply::null_array()));
}

TEST_F(StreamBlocking, ParkedGroupReaderGetsNewEntriesOrAnError) {
  run({"xgroup", "create", "s", "g", "$", "mkstream"});
  node.execute({"xreadgroup", "group", "g", "alice", "block", "0", "streams", "s", ">"}, second);
  node.execute({"xreadgroup", "group", "g", "bob", "block", "0", "streams", "s", ">"}, third);
  run({"xadd", "s", "1", "f", "v"});
  ASSERT_EQ(late.size(), 1u);
  EXPECT_EQ(late[0], late_reply(2, Read("s", "1-0", "f", "v")));
  EXPECT_REPLY(run({"xpending", "s", "g"}), A({I(1), B("1-0"), B("1-0"), A({A({B("alice"), B("1")})})}));
  EXPECT_TRUE(third.blocked);
  run({"del", "s"});
  ASSERT_EQ(late.size(), 2u);
  EXPECT_EQ(late[1], late_reply(3, E("UNBLOCKED the stream key no longer exists")));
  run({"xgroup", "create", "s", "g", "$", "mkstream"});
  node.execute({"xreadgroup", "group", "g", "bob", "block", "0", "streams", "s", ">"}, third);
  run({"xgroup", "destroy", "s", "g"});
  EXPECT_EQ(late.at(2), late_reply(3, E("NOGROUP the consumer group this client was blocked on no longer exists")));
}

// unit/type/stream "Blocking XREAD for stream that ran dry (issue #5299)": the last ID passed the reader's, but no
// entry is there to read, so it waits (it was served an empty read at once).
TEST_F(StreamBlocking, AReaderOfADrainedStreamWaitsForTheNextEntry) {
  run({"xadd", "s", "666", "key", "value"});
  run({"xdel", "s", "666"});
  node.execute({"xread", "block", "0", "streams", "s", "665"}, second);
  EXPECT_TRUE(late.empty());
  EXPECT_TRUE(second.blocked);
  run({"xadd", "s", "667", "key", "value"});
  ASSERT_EQ(late.size(), 1u);
  EXPECT_EQ(late[0], late_reply(2, Read("s", "667-0", "key", "value")));
}

// unit/type/stream-cgroups "XGROUP DESTROY should unblock XREADGROUP with -NOGROUP": the late error is counted.
TEST_F(StreamBlocking, ALateErrorCountsInErrorstats) {
  run({"xgroup", "create", "s", "g", "$", "mkstream"});
  node.execute({"xreadgroup", "group", "g", "c", "block", "0", "streams", "s", ">"}, second);
  run({"xgroup", "destroy", "s", "g"});
  ASSERT_EQ(late.size(), 1u);
  EXPECT_NE(run({"info", "errorstats"}).text.find("errorstat_NOGROUP:count=1"), std::string::npos);
}

// unit/multi "Blocking commands ignores the timeout" and unit/scripting "Scripts can't run XREAD and XREADGROUP
// with BLOCK option".
TEST_F(StreamBlocking, NoBlockingInsideExecAndNoBlockOptionInScripts) {
  run({"xgroup", "create", "s", "g", "$", "mkstream"});
  run({"multi"});
  run({"xread", "block", "0", "streams", "s", "$"});
  run({"xreadgroup", "group", "g", "c", "block", "0", "streams", "s", ">"});
  EXPECT_REPLY(run({"exec"}), A({Reply::null_array(), Reply::null_array()}));
  EXPECT_REPLY(eval("return redis.pcall('xread','STREAMS','s','$')", {"s"}), N());
  EXPECT_REPLY(eval("return redis.pcall('xread','BLOCK',0,'STREAMS','s','$')", {"s"}),
               E("ERR xread command is not allowed with BLOCK option from scripts"));
  EXPECT_REPLY(eval("return redis.pcall('xreadgroup','group','g','c','BLOCK',0,'STREAMS','s','>')", {"s"}),
               E("ERR xreadgroup command is not allowed with BLOCK option from scripts"));
}

// unit/pubsub "Keyspace notifications: stream events test": class t, in 7.0.15's names and order.
TEST_F(StreamBlocking, KeyspaceNotificationsOfStreamCommands) {
  std::vector<std::string> received;
  node.set_publish_sink([&received](std::int64_t, const Reply& message) { received.push_back(to_string(message)); });
  run({"config", "set", "notify-keyspace-events", "Kt"});
  node.execute({"psubscribe", "*"}, second);
  run({"xgroup", "create", "s", "g", "$", "mkstream"});
  run({"xgroup", "createconsumer", "s", "g", "Bob"});
  run({"xadd", "s", "1", "field1", "A"});
  run({"xreadgroup", "group", "g", "Alice", "streams", "s", ">"});
  run({"xclaim", "s", "g", "Mike", "0", "1-0", "force"});
  run({"xgroup", "delconsumer", "s", "g", "Lee"});
  run({"xautoclaim", "s", "g", "Bob", "0", "1-0"});
  run({"xgroup", "delconsumer", "s", "g", "Bob"});
  run({"xadd", "s", "maxlen", "0", "2", "f", "v"});
  run({"xdel", "s", "2"});
  run({"xsetid", "s", "5"});
  run({"xgroup", "setid", "s", "g", "0"});
  run({"xgroup", "destroy", "s", "g"});
  std::vector<std::string> events;
  for (const std::string& message : received) events.push_back(message.substr(message.rfind(", \"") + 3));
  EXPECT_EQ(events, (std::vector<std::string>{"xgroup-create\"]", "xgroup-createconsumer\"]", "xadd\"]",
                                              "xgroup-createconsumer\"]", "xgroup-createconsumer\"]",
                                              "xgroup-delconsumer\"]", "xadd\"]", "xtrim\"]", "xsetid\"]",
                                              "xgroup-setid\"]", "xgroup-destroy\"]"}));
}

}  // namespace
}  // namespace lockcheck::mock::testing
