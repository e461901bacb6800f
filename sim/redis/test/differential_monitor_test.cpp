// MONITOR, mock against a private redis-server 7.0.15 on raw bytes: the lines a monitoring connection gets
// for another client's commands (timestamps and client addresses masked), and the monitor's own replies.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "live_server.hpp"
#include "raw_connection.hpp"
#include "redis_server.hpp"

namespace lockcheck::mock::testing {
namespace {

std::string monitor_masked(const std::string& reply) {
  static const std::regex kStamp(R"(^\+\d+\.\d{6} \[(\d+) (127\.0\.0\.1:\d+|lua)\] )");
  std::smatch match;
  if (!std::regex_search(reply, match, kStamp)) return reply;
  return "+T [" + match[1].str() + " " + (match[2] == "lua" ? "lua" : "ADDR") + "] " + match.suffix().str();
}

// What `monitor` was sent since its last PING, masked: everything before its next PING's reply (a command's
// line is queued before the command's reply reaches its client, so before that PING runs).
std::vector<std::string> monitor_shown_since(RawConnection& monitor) {
  EXPECT_TRUE(monitor.send_request(encode_request({"PING"})));
  std::vector<std::string> shown;
  for (int i = 0; i < 100; ++i) {
    const std::string reply = monitor.read_replies(1);
    // A subscribed RESP2 connection's PING answers a pong array.
    if (reply == "+PONG\r\n" || reply == "*2\r\n$4\r\npong\r\n$0\r\n\r\n" || reply.starts_with("read failed")) break;
    shown.push_back(monitor_masked(reply));
  }
  monitor.read_replies(1);  // the PING's own line
  return shown;
}

struct MonitorSide {
  RawConnection monitor, client;
  MonitorSide(int port) : monitor("127.0.0.1", port), client("127.0.0.1", port) {}
};

TEST_F(LiveServer, DifferentialMonitorLinesMatchRedis) {
  const std::vector<Command> commands = {
      {"SET", "k", "v"}, {"set", "bin", std::string("\x01\xff\"\\ \t\r\n\a\b", 11)}, {"GET", "k"},
      {"EVAL", "redis.call('set', KEYS[1], ARGV[1]) return redis.call('get', KEYS[1])", "1", "s", "12"},
      {"EVAL", "redis.call('select', 2) return redis.call('incr', 'n')", "0"},
      {"EVALSHA", "0123456789012345678901234567890123456789", "0"}, {"EVALSHA", "short", "0"}, {"EVAL", "return 1", "x"},
      {"MULTI"}, {"SET", "t", "1"}, {"INCR", "t"}, {"EVAL", "return redis.call('get', 't')", "0"}, {"EXEC"},
      {"MULTI"}, {"NOSUCH"}, {"EXEC"}, {"NOSUCH", "a"}, {"GET"}, {"EXEC"},
      {"AUTH", "x"}, {"AUTH", "user", "pass"}, {"AUTH", "a", "b", "c"}, {"HELLO", "2", "AUTH", "default", "wrong"},
      {"HELLO", "2", "SETNAME", "n", "AUTH", "u", "p"}, {"HELLO", "9", "AUTH", "a", "b"}, {"HELLO", "x", "AUTH", "a", "b"},
      {"HELLO", "2", "SETNAME", "bad name", "AUTH", "u", "p"},
      {"CONFIG", "SET", "maxmemory", "0"}, {"CONFIG", "GET", "maxmemory"}, {"CLIENT", "LIST"}, {"CLIENT", "SETNAME", "c1"},
      {"CLIENT", "GETNAME"}, {"SELECT", "1"}, {"SET", "in1", "v"}, {"SELECT", "0"}, {"PING"}, {"ECHO", "e"},
      {"FUNCTION", "LOAD", "#!lua name=lib\nredis.register_function('f', function(keys) return redis.call('get', keys[1]) end)"},
      {"FCALL", "f", "1", "k"}, {"FUNCTION", "DELETE", "lib"}, {"PEXPIRE", "k", "100000"}, {"DEL", "k", "bin"},
  };
  lockcheck::testing::RedisServer server;
  MonitorSide real(server.port()), mock(server_->port());
  for (MonitorSide* side : {&real, &mock}) ASSERT_EQ(side->monitor.exchange(encode_request({"MONITOR"}), 1), "+OK\r\n");
  for (const Command& command : commands) {
    const std::string request = encode_request(command);
    const std::string mock_reply = mock.client.exchange(request, 1), real_reply = real.client.exchange(request, 1);
    // HELLO's client id and CLIENT LIST's clients differ by nature; the lines are what this test is about.
    if (command[0] != "HELLO" && command[0] != "CLIENT") {
      EXPECT_EQ(mock_reply, real_reply) << command[0];
    }
    EXPECT_EQ(monitor_shown_since(mock.monitor), monitor_shown_since(real.monitor)) << command[0];
  }
  // The monitor's own commands: a second MONITOR is not answered; the keyspace is refused; SUBSCRIBE and
  // PSUBSCRIBE are answered, then shown to itself.
  for (const Command& command : std::vector<Command>{{"MONITOR"}, {"GET", "k"}, {"PUBLISH", "c", "m"}, {"ECHO", "e"},
                                                     {"SUBSCRIBE", "c"}, {"PSUBSCRIBE", "__keyevent@0__:*"}}) {
    const std::string request = encode_request(command);
    ASSERT_TRUE(mock.monitor.send_request(request));
    ASSERT_TRUE(real.monitor.send_request(request));
    EXPECT_EQ(monitor_shown_since(mock.monitor), monitor_shown_since(real.monitor)) << command[0];
  }
}

}  // namespace
}  // namespace lockcheck::mock::testing
