// MONITOR on a live served mock: what a monitoring connection is shown of other clients' commands, in order,
// and what it may still do itself (node_observer.cpp in tools/redis_backend relies on both).
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "live_server.hpp"
#include "raw_connection.hpp"

namespace lockcheck::mock::testing {
namespace {

// A MONITOR line with its timestamp and client address replaced, so a test can compare the rest exactly.
std::string masked_line(const std::string& line) {
  static const std::regex kStamp(R"(^\+\d+\.\d{6} \[(\d+) (127\.0\.0\.1:\d+|lua)\] )");
  std::smatch match;
  if (!std::regex_search(line, match, kStamp)) return "unmasked: " + line;
  const std::string source = match[2] == "lua" ? "lua" : "addr";
  return "[" + match[1].str() + " " + source + "] " + match.suffix().str();
}

TEST_F(LiveServer, MonitorShowsAnotherClientsSetAndItsScriptWithTheScriptsCommandsAfterIt) {
  RawConnection monitor("127.0.0.1", server_->port());
  RawConnection client("127.0.0.1", server_->port());
  ASSERT_EQ(monitor.exchange(encode_request({"MONITOR"}), 1), "+OK\r\n");
  ASSERT_EQ(client.exchange(encode_request({"SET", "lock", "tok\"1\n", "PX", "30000"}), 1), "+OK\r\n");
  ASSERT_EQ(client.exchange(encode_request({"EVAL", "return redis.call('del', KEYS[1])", "1", "lock"}), 1), ":1\r\n");
  ASSERT_EQ(client.exchange(encode_request({"CONFIG", "SET", "maxmemory", "0"}), 1), "+OK\r\n");  // admin: hidden
  ASSERT_EQ(client.exchange(encode_request({"AUTH", "secret"}), 1).substr(0, 4), "-ERR");
  ASSERT_EQ(client.exchange(encode_request({"GET", "lock"}), 1), "$-1\r\n");
  EXPECT_EQ(masked_line(monitor.read_replies(1)), "[0 addr] \"SET\" \"lock\" \"tok\\\"1\\n\" \"PX\" \"30000\"\r\n");
  EXPECT_EQ(masked_line(monitor.read_replies(1)), "[0 addr] \"EVAL\" \"return redis.call('del', KEYS[1])\" \"1\" \"lock\"\r\n");
  EXPECT_EQ(masked_line(monitor.read_replies(1)), "[0 lua] \"del\" \"lock\"\r\n");
  EXPECT_EQ(masked_line(monitor.read_replies(1)), "[0 addr] \"AUTH\" \"(redacted)\"\r\n");
  EXPECT_EQ(masked_line(monitor.read_replies(1)), "[0 addr] \"GET\" \"lock\"\r\n");
}

TEST_F(LiveServer, AMonitorMaySubscribeButNotTouchTheKeyspace) {
  RawConnection monitor("127.0.0.1", server_->port());
  RawConnection client("127.0.0.1", server_->port());
  ASSERT_EQ(monitor.exchange(encode_request({"MONITOR"}), 1), "+OK\r\n");
  EXPECT_EQ(monitor.exchange(encode_request({"PUBLISH", "marker", "1"}), 1), "-ERR Replica can't interact with the keyspace\r\n");
  // Its own commands are shown to it too, after their replies.
  EXPECT_EQ(monitor.exchange(encode_request({"SUBSCRIBE", "marker"}), 1), "*3\r\n$9\r\nsubscribe\r\n$6\r\nmarker\r\n:1\r\n");
  EXPECT_EQ(masked_line(monitor.read_replies(1)), "[0 addr] \"SUBSCRIBE\" \"marker\"\r\n");
  // Another client's PUBLISH reaches it as a message, then its MONITOR line.
  ASSERT_EQ(client.exchange(encode_request({"PUBLISH", "marker", "7"}), 1), ":1\r\n");
  EXPECT_EQ(monitor.read_replies(1), "*3\r\n$7\r\nmessage\r\n$6\r\nmarker\r\n$1\r\n7\r\n");
  EXPECT_EQ(masked_line(monitor.read_replies(1)), "[0 addr] \"PUBLISH\" \"marker\" \"7\"\r\n");
  // CLIENT LIST flags a monitor O (and P once subscribed), as Redis does.
  const std::string list = client.exchange(encode_request({"CLIENT", "LIST"}), 1);
  EXPECT_NE(list.find(" flags=OP "), std::string::npos) << list;
}

TEST_F(LiveServer, InfoServerNamesTheServingProcess) {
  RawConnection client("127.0.0.1", server_->port());
  const std::string info = client.exchange(encode_request({"INFO", "server"}), 1);
  EXPECT_NE(info.find("\r\nprocess_id:" + std::to_string(getpid()) + "\r\n"), std::string::npos) << info;
}

}  // namespace
}  // namespace lockcheck::mock::testing
