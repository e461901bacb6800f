// MONITOR's lines as Redis 7.0 writes them (the examples are copied from a real redis-server 7.0.15).
#include "monitor_line.hpp"

#include <gtest/gtest.h>

namespace lockcheck::redis_backend {
namespace {

using Args = std::vector<std::string>;

TEST(MonitorLine, AClientCommand) {
  const auto line = parse_monitor_line(R"(1795458556.349001 [0 127.0.0.1:49036] "SET" "lock" "tok1" "NX" "PX" "5000")");
  ASSERT_TRUE(line);
  EXPECT_EQ(line->unix_us, 1795458556349001);
  EXPECT_EQ(line->db, 0);
  EXPECT_EQ(line->source, "127.0.0.1:49036");
  EXPECT_FALSE(line->from_script());
  EXPECT_EQ(line->argv, (Args{"SET", "lock", "tok1", "NX", "PX", "5000"}));
  EXPECT_EQ(line->name(), "SET");
}

TEST(MonitorLine, ACommandAScriptRan) {
  const auto line = parse_monitor_line(R"(1795458556.451253 [3 lua] "hset" "lockh" "mode" "write")");
  ASSERT_TRUE(line);
  EXPECT_EQ(line->db, 3);
  EXPECT_TRUE(line->from_script());
  EXPECT_EQ(line->name(), "HSET");
  EXPECT_EQ(line->argv, (Args{"hset", "lockh", "mode", "write"}));
}

TEST(MonitorLine, QuotedBytesComeBackExactly) {
  // redis.call('SET', KEYS[1], 'a"b\n\1\255 x') as MONITOR shows it.
  const auto line = parse_monitor_line(R"(1795458741.080477 [0 lua] "SET" "lock" "a\"b\n\x01\xff x")");
  ASSERT_TRUE(line);
  EXPECT_EQ(line->argv.at(2), std::string("a\"b\n\x01\xff x"));
  const auto more = parse_monitor_line(R"(1.000000 [0 lua] "x" "\\\r\t\a\b" "")");
  ASSERT_TRUE(more);
  EXPECT_EQ(more->argv, (Args{"x", "\\\r\t\a\b", ""}));
}

TEST(MonitorLine, AScriptBodyWithSpacesAndQuotes) {
  const auto line = parse_monitor_line(
      R"x(1795458741.144904 [0 127.0.0.1:55748] "EVAL" "redis.call('SET',KEYS[1],'x'); error('boom')" "1" "lock")x");
  ASSERT_TRUE(line);
  EXPECT_EQ(line->argv, (Args{"EVAL", "redis.call('SET',KEYS[1],'x'); error('boom')", "1", "lock"}));
}

TEST(MonitorLine, OtherSources) {
  const auto unix_socket = parse_monitor_line(R"(1.000001 [0 unix:/tmp/redis.sock] "PING")");
  ASSERT_TRUE(unix_socket);
  EXPECT_EQ(unix_socket->source, "unix:/tmp/redis.sock");
  const auto ipv6 = parse_monitor_line(R"(1.000001 [0 [::1]:6379] "PING")");
  ASSERT_TRUE(ipv6);
  EXPECT_EQ(ipv6->source, "[::1]:6379");
}

TEST(MonitorLine, WhatIsNotALine) {
  EXPECT_FALSE(parse_monitor_line("OK"));
  EXPECT_FALSE(parse_monitor_line(""));
  EXPECT_FALSE(parse_monitor_line(R"(1795458556.349001 [0 127.0.0.1:49036])"));  // no command
  EXPECT_FALSE(parse_monitor_line(R"(1795458556.349001 [0 127.0.0.1:49036] "SET" "unterminated)"));
  EXPECT_FALSE(parse_monitor_line(R"(1795458556.349001 [0 127.0.0.1:49036] "SET" "bad\q")"));
  EXPECT_FALSE(parse_monitor_line(R"(1795458556.349001 [0 127.0.0.1:49036] "SET""glued")"));
  EXPECT_FALSE(parse_monitor_line(R"(1795458556.34 [0 127.0.0.1:49036] "SET")"));
  EXPECT_FALSE(parse_monitor_line(R"(x.349001 [0 127.0.0.1:49036] "SET")"));
}

}  // namespace
}  // namespace lockcheck::redis_backend
