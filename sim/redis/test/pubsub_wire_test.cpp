// Pub/sub and null arrays on the wire: confirmations under CLIENT REPLY OFF/SKIP, the order of commands sent
// on two connections, and RESP2's "*-1" from a served blocking pop (bytes as redis-server 7.0.15 sends them).
#include <gtest/gtest.h>

#include "live_server.hpp"
#include "raw_connection.hpp"
#include "redis/wire/resp_connection.hpp"

namespace lockcheck::mock::testing {
namespace {

std::string sent_for(RespConnection& connection, Node& node, const Command& command) {
  connection.output().clear();
  connection.receive(encode_request(command), node);
  return connection.output();
}

// 7.0 marks every pub/sub confirmation a push (CLIENT_PUSHING): CLIENT REPLY OFF or SKIP does not hold it back.
TEST(PubSubWire, ConfirmationsAreSentWhateverClientReplySays) {
  Node node(NodeOptions{.clock = [] { return std::int64_t{1'000}; }});
  RespConnection connection(1, ConnectionLimits{}, "");
  node.set_publish_sink([&](std::int64_t, const Reply& message) { connection.push(message); });
  EXPECT_EQ(sent_for(connection, node, {"CLIENT", "REPLY", "OFF"}), "");
  EXPECT_EQ(sent_for(connection, node, {"SUBSCRIBE", "channel"}), "*3\r\n$9\r\nsubscribe\r\n$7\r\nchannel\r\n:1\r\n");
  EXPECT_EQ(sent_for(connection, node, {"PING"}), "");
  EXPECT_EQ(sent_for(connection, node, {"CLIENT", "REPLY", "SKIP"}), "");
  EXPECT_EQ(sent_for(connection, node, {"PSUBSCRIBE", "ch*"}), "*3\r\n$10\r\npsubscribe\r\n$3\r\nch*\r\n:2\r\n");
  Session publisher{.client_id = 2};
  connection.output().clear();
  EXPECT_EQ(node.execute({"PUBLISH", "channel", "hello"}, publisher), Reply::integer_reply(2));
  EXPECT_EQ(connection.output(), "*3\r\n$7\r\nmessage\r\n$7\r\nchannel\r\n$5\r\nhello\r\n"
                                 "*4\r\n$8\r\npmessage\r\n$3\r\nch*\r\n$7\r\nchannel\r\n$5\r\nhello\r\n");
  EXPECT_EQ(sent_for(connection, node, {"UNSUBSCRIBE"}), "*3\r\n$11\r\nunsubscribe\r\n$7\r\nchannel\r\n:1\r\n");
  EXPECT_EQ(sent_for(connection, node, {"PUNSUBSCRIBE"}), "*3\r\n$12\r\npunsubscribe\r\n$3\r\nch*\r\n:0\r\n");
  EXPECT_EQ(sent_for(connection, node, {"CLIENT", "REPLY", "ON"}), "+OK\r\n");
  EXPECT_EQ(sent_for(connection, node, {"UNSUBSCRIBE"}), "*3\r\n$11\r\nunsubscribe\r\n$-1\r\n:0\r\n");
}

// Redis serves connections in the order they became readable (epoll), so a command written on one
// connection before another's runs first; the Tcl suite's "UNSUBSCRIBE without arguments" relies on it.
TEST_F(LiveServer, CommandsWrittenOneAfterAnotherOnTwoConnectionsRunInThatOrder) {
  RawConnection publisher("127.0.0.1", server_->port());  // the lower descriptor: first in a poll() scan
  RawConnection subscriber("127.0.0.1", server_->port());
  for (int round = 0; round < 20; ++round) {
    ASSERT_EQ(subscriber.exchange(encode_request({"SUBSCRIBE", "c"}), 1), "*3\r\n$9\r\nsubscribe\r\n$1\r\nc\r\n:1\r\n");
    ASSERT_TRUE(subscriber.send_request(encode_request({"UNSUBSCRIBE"})));
    EXPECT_EQ(publisher.exchange(encode_request({"PUBLISH", "c", "late"}), 1), ":0\r\n") << "round " << round;
    EXPECT_EQ(subscriber.read_replies(1), "*3\r\n$11\r\nunsubscribe\r\n$1\r\nc\r\n:0\r\n");
  }
}

TEST_F(LiveServer, TimedOutBlockingPopsAnswerANullArray) {
  RawConnection client("127.0.0.1", server_->port());
  EXPECT_EQ(client.exchange(encode_request({"BLPOP", "missing", "0.01"}), 1), "*-1\r\n");
  EXPECT_EQ(client.exchange(encode_request({"BLMOVE", "missing", "d", "LEFT", "LEFT", "0.01"}), 1), "*-1\r\n");
  EXPECT_EQ(client.exchange(encode_request({"LPOP", "missing", "1"}), 1), "*-1\r\n");
  EXPECT_EQ(client.exchange(encode_request({"LPOP", "missing"}), 1), "$-1\r\n");
}

}  // namespace
}  // namespace lockcheck::mock::testing
