// Pattern and shard pub/sub, PUBSUB introspection (replies recorded from redis-server 7.0.15).
#include <gtest/gtest.h>

#include "mock_test_support.hpp"

namespace lockcheck::mock::testing {
namespace {

#define EXPECT_REPLY(actual, expected) EXPECT_EQ(to_string(actual), to_string(expected)) << "reply kinds must match too"

class PubSub : public ::testing::Test, public MockFixture {
 protected:
  PubSub() {
    node.set_publish_sink([this](std::int64_t client_id, const Reply& message) {
      received.push_back(std::to_string(client_id) + " " + to_string(message));
    });
  }
  // The confirmations after the first, which the transport sends after execute()'s reply.
  std::vector<Reply> take_extra(Session& s) { return std::exchange(s.extra_replies, {}); }
  std::vector<std::string> received;
  Session other{.client_id = 2};
};

Reply P(std::vector<Reply> elements) { return Reply::array(std::move(elements)); }  // a push, as RESP2 sees it

TEST_F(PubSub, PatternSubscriptionsCountWithChannels) {
  EXPECT_REPLY(run({"psubscribe", "a*", "b?"}), P({B("psubscribe"), B("a*"), I(1)}));
  EXPECT_REPLY(take_extra(session).at(0), P({B("psubscribe"), B("b?"), I(2)}));
  EXPECT_REPLY(run({"subscribe", "c"}), P({B("subscribe"), B("c"), I(3)}));
  EXPECT_REPLY(run({"punsubscribe", "b?"}), P({B("punsubscribe"), B("b?"), I(2)}));
  EXPECT_REPLY(run({"ping"}), A({B("pong"), B("")}));
  EXPECT_REPLY(run({"pubsub", "numpat"}),
               E("ERR Can't execute 'pubsub|numpat': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are "
                 "allowed in this context"));
  EXPECT_REPLY(run({"punsubscribe"}), P({B("punsubscribe"), B("a*"), I(1)}));
  EXPECT_REPLY(run({"unsubscribe"}), P({B("unsubscribe"), B("c"), I(0)}));
  EXPECT_REPLY(run({"punsubscribe"}), P({B("punsubscribe"), N(), I(0)}));
  EXPECT_REPLY(run({"get", "x"}), N());  // out of subscribed mode
}

// processCommand's refusals of EXEC are worded by execCommandAbort (found by the differential test).
TEST_F(PubSub, RefusedExecIsAnExecAbort) {
  run({"ssubscribe", "sc"});
  EXPECT_REPLY(run({"exec"}), E("EXECABORT Transaction discarded because of: Can't execute 'exec': only (P|S)SUBSCRIBE / "
                                "(P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context"));
  other.requirepass = "pw";
  EXPECT_REPLY(node.execute({"exec"}, other), E("EXECABORT Transaction discarded because of: NOAUTH Authentication required."));
  EXPECT_REPLY(node.execute({"multi"}, other), E("NOAUTH Authentication required."));
}

TEST_F(PubSub, InsideExecSsubscribeIsRefusedPsubscribeRuns) {
  run({"multi"});
  run({"psubscribe", "x"});
  run({"ssubscribe", "sc"});
  EXPECT_REPLY(run({"exec"}), A({P({B("psubscribe"), B("x"), I(1)}), E("ERR SSUBSCRIBE isn't allowed for a DENY BLOCKING client")}));
}

// The Tcl pubsub unit's "evicted events" waits for the event right after CONFIG SET maxmemory 1.
TEST_F(PubSub, ConfigSetMaxmemoryBelowUsageEvictsAtOnceAndAnnouncesIt) {
  run({"config", "set", "notify-keyspace-events", "Ee"});
  run({"config", "set", "maxmemory-policy", "allkeys-lru"});
  node.execute({"psubscribe", "*"}, other);
  run({"set", "foo", "bar"});
  EXPECT_TRUE(received.empty());
  EXPECT_REPLY(run({"config", "set", "maxmemory", "1"}), S("OK"));
  ASSERT_EQ(received.size(), 1u);
  EXPECT_EQ(received[0], "2 (push) [\"pmessage\", \"*\", \"__keyevent@0__:evicted\", \"foo\"]");
  run({"config", "set", "maxmemory", "0"});
  EXPECT_REPLY(run({"dbsize"}), I(0));
}

TEST_F(PubSub, PublishReachesChannelsThenPatterns) {
  node.execute({"psubscribe", "news.*", "*"}, other);
  node.execute({"subscribe", "news.sport"}, session);
  Session publisher{.client_id = 3};
  EXPECT_REPLY(node.execute({"publish", "news.sport", "goal"}, publisher), I(3));
  ASSERT_EQ(received.size(), 3u);
  EXPECT_EQ(received[0], "1 " + to_string(Reply::push({B("message"), B("news.sport"), B("goal")})));
  EXPECT_EQ(received[1], "2 " + to_string(Reply::push({B("pmessage"), B("*"), B("news.sport"), B("goal")})));
  EXPECT_EQ(received[2], "2 " + to_string(Reply::push({B("pmessage"), B("news.*"), B("news.sport"), B("goal")})));
  EXPECT_REPLY(node.execute({"publish", "weather", "rain"}, publisher), I(1));
  node.disconnect(other);
  EXPECT_REPLY(node.execute({"publish", "weather", "rain"}, publisher), I(0));
}

TEST_F(PubSub, ShardChannels) {
  EXPECT_REPLY(run({"ssubscribe", "s1", "s2"}), P({B("ssubscribe"), B("s1"), I(1)}));
  EXPECT_REPLY(take_extra(session).at(0), P({B("ssubscribe"), B("s2"), I(2)}));
  EXPECT_REPLY(node.execute({"spublish", "s1", "m"}, other), I(1));
  EXPECT_REPLY(node.execute({"publish", "s1", "m"}, other), I(0));  // shard channels are apart
  ASSERT_EQ(received.size(), 1u);
  EXPECT_EQ(received[0], "1 " + to_string(Reply::push({B("smessage"), B("s1"), B("m")})));
  EXPECT_REPLY(node.execute({"pubsub", "shardchannels"}, other), A({B("s1"), B("s2")}));
  EXPECT_REPLY(node.execute({"pubsub", "shardnumsub", "s1", "x"}, other), A({B("s1"), I(1), B("x"), I(0)}));
  EXPECT_REPLY(run({"sunsubscribe"}), P({B("sunsubscribe"), B("s1"), I(1)}));
  EXPECT_REPLY(run({"sunsubscribe"}), P({B("sunsubscribe"), N(), I(0)}));
}

TEST_F(PubSub, Introspection) {
  node.execute({"subscribe", "news", "sport"}, other);
  node.execute({"psubscribe", "n*"}, other);
  EXPECT_REPLY(run({"pubsub", "channels"}), A({B("news"), B("sport")}));
  EXPECT_REPLY(run({"pubsub", "channels", "n*"}), A({B("news")}));
  EXPECT_REPLY(run({"pubsub", "numsub", "news", "x"}), A({B("news"), I(1), B("x"), I(0)}));
  EXPECT_REPLY(run({"pubsub", "numpat"}), I(1));
  EXPECT_REPLY(run({"pubsub", "numpat", "x"}), E("ERR wrong number of arguments for 'pubsub|numpat' command"));
  EXPECT_REPLY(run({"pubsub", "foo"}), E("ERR unknown subcommand 'foo'. Try PUBSUB HELP."));
  EXPECT_REPLY(run({"pubsub", "CHANNELS", "a", "b"}),
               E("ERR unknown subcommand or wrong number of arguments for 'CHANNELS'. Try PUBSUB HELP."));
  EXPECT_EQ(run({"pubsub", "help"}).elements.size(), 14u);
  other.resp = 3;  // RESP3 runs any command while subscribed
  const std::string info = node.execute({"client", "info"}, other).text;
  EXPECT_NE(info.find(" sub=2 psub=1 ssub=0 "), std::string::npos) << info;
}

}  // namespace
}  // namespace lockcheck::mock::testing
