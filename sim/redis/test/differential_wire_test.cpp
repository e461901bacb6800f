// Differential test on raw RESP2 bytes, mock against a private redis-server 7.0: what only a second
// connection sees, keyspace notifications, byte for byte.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "raw_connection.hpp"
#include "redis/server/node.hpp"
#include "redis/wire/real_clock.hpp"
#include "redis/wire/resp_connection.hpp"
#include "redis_server.hpp"

namespace lockcheck::mock::testing {
namespace {

// Everything a subscriber to every key event receives after `request`, up to its own PING's reply: the
// server has queued a command's notifications before it reads the subscriber's next command.
std::string notifications_after(RawConnection& commands, RawConnection& subscriber, const std::string& request,
                                std::string& reply) {
  static const std::string kPong = "*2\r\n$4\r\npong\r\n$0\r\n\r\n";
  reply = commands.exchange(request, 1);
  subscriber.send_request(encode_request({"PING"}));
  std::string received;
  for (int messages = 0; messages < 1000; ++messages) {
    const std::string message = subscriber.read_replies(1);
    if (message == kPong || message.starts_with("read failed")) break;
    received += message;
  }
  return received;
}

// One command per event the mock announces, with Redis 7.0.15's event names, classes and order ('n' for new
// keys too). Expiry and eviction are timed on redis-server's own clock and sampling: unit tests cover them.
TEST(DifferentialWire, KeyspaceNotificationsAreByteIdentical) {
  const std::vector<Command> commands = {
      {"SET", "s", "1"}, {"SET", "s", "2", "EX", "100"}, {"SETNX", "s", "x"}, {"SETNX", "s2", "x"}, {"SETEX", "s3", "100", "v"},
      {"PSETEX", "s4", "100000", "v"}, {"GETSET", "s", "3"}, {"GETEX", "s", "EX", "50"}, {"GETEX", "s", "PERSIST"},
      {"GETEX", "s", "PX", "0"}, {"GETDEL", "s2"}, {"MSET", "m1", "a", "m2", "b"}, {"MSETNX", "m3", "a", "m1", "b"},
      {"MSETNX", "m4", "a", "m5", "b"}, {"APPEND", "m1", "x"}, {"APPEND", "new", "x"}, {"INCR", "n"}, {"DECR", "n"},
      {"INCRBY", "n", "5"}, {"DECRBY", "n", "2"}, {"INCRBYFLOAT", "n", "1.5"}, {"EXPIRE", "n", "100"},
      {"PEXPIRE", "n", "100000"}, {"EXPIREAT", "n", "9999999999"}, {"PEXPIREAT", "n", "9999999999000"},
      {"PERSIST", "n"}, {"PERSIST", "n"}, {"EXPIRE", "m2", "0"}, {"PEXPIREAT", "m3", "1"}, {"SET", "x", "v", "KEEPTTL"},
      {"RENAME", "x", "y"}, {"RENAMENX", "y", "m1"}, {"RENAMENX", "y", "z"}, {"COPY", "z", "z2"},
      {"COPY", "z", "z2", "REPLACE"}, {"COPY", "z", "z3", "DB", "1"}, {"MOVE", "z3", "2"}, {"MOVE", "z2", "1"},
      {"DEL", "z", "missing", "m1"}, {"UNLINK", "m4"}, {"TOUCH", "m5"}, {"GET", "m5"},
      {"HSET", "h", "a", "1", "b", "2"}, {"HSETNX", "h", "a", "x"}, {"HSETNX", "h", "c", "3"}, {"HMSET", "h", "d", "4"},
      {"HINCRBY", "h", "a", "2"}, {"HINCRBYFLOAT", "h", "b", "0.5"}, {"HDEL", "h", "a", "zz"}, {"HDEL", "h", "zz"},
      {"HDEL", "h", "b", "c", "d"},
      {"LPUSH", "l", "a", "b"}, {"RPUSH", "l", "c"}, {"LPUSHX", "l", "d"}, {"RPUSHX", "nolist", "d"}, {"RPUSHX", "l", "e"},
      {"LSET", "l", "0", "z"}, {"LINSERT", "l", "BEFORE", "z", "y"}, {"LINSERT", "l", "BEFORE", "nope", "y"},
      {"LREM", "l", "0", "y"}, {"LREM", "l", "0", "nope"}, {"LTRIM", "l", "0", "2"}, {"LPOP", "l"}, {"RPOP", "l", "1"},
      {"LMOVE", "l", "l2", "LEFT", "RIGHT"}, {"RPOPLPUSH", "l2", "l2"}, {"RPUSH", "l3", "a", "b", "c"},
      {"BLPOP", "l3", "0"}, {"BRPOP", "l3", "0"}, {"BLMOVE", "l3", "l4", "RIGHT", "LEFT", "0"},
      {"BRPOPLPUSH", "l4", "l5", "0"}, {"LTRIM", "l5", "1", "0"}, {"LPOP", "l2", "5"},
      {"SADD", "set", "a", "b", "c"}, {"SADD", "set", "a"}, {"SREM", "set", "a", "x"}, {"SREM", "set", "x"},
      {"SMOVE", "set", "set2", "b"}, {"SPOP", "set2"}, {"SMOVE", "set", "set2", "c"}, {"SADD", "set3", "1", "2", "3"},
      {"SADD", "set5", "7"}, {"SPOP", "set5", "1"}, {"SADD", "set4", "2", "9"}, {"SINTERSTORE", "dst", "set3", "set4"},
      {"SUNIONSTORE", "dst", "set3", "set4"}, {"SDIFFSTORE", "dst", "set3", "set3"}, {"SINTERSTORE", "dst", "nope", "set4"},
      {"SPOP", "set3", "10"}, {"SPOP", "set4", "0"},
      {"ZADD", "z", "1", "a", "2", "b", "3", "c", "4", "d"}, {"ZADD", "z", "1", "a"}, {"ZADD", "z", "INCR", "1", "a"},
      {"ZADD", "z", "XX", "5", "new"}, {"ZINCRBY", "z", "1", "b"}, {"ZREM", "z", "a", "nope"}, {"ZREM", "z", "nope"},
      {"ZADD", "z", "6", "e", "7", "f", "8", "g"}, {"ZREMRANGEBYSCORE", "z", "3", "3"}, {"ZREMRANGEBYRANK", "z", "0", "0"},
      {"ZREMRANGEBYLEX", "z", "[zz", "+"}, {"ZADD", "z", "9", "h", "10", "i"}, {"ZPOPMIN", "z"}, {"ZPOPMAX", "z", "1"}, {"BZPOPMIN", "z", "0"},
      {"BZPOPMAX", "z", "0"}, {"ZREMRANGEBYSCORE", "z", "-inf", "+inf"},
      {"EVAL", "redis.call('set', KEYS[1], 'v') return redis.call('incr', 'counter')", "1", "scripted"},
      {"EVAL", "return redis.call('zadd', KEYS[1], 'INCR', 1, 'm')", "1", "ez"},
      {"XADD", "st", "1", "f", "v"}, {"XADD", "st", "MAXLEN", "1", "2", "f", "v"}, {"XADD", "st", "NOMKSTREAM", "3", "f", "v"},
      {"XADD", "nost", "NOMKSTREAM", "*", "f", "v"}, {"XDEL", "st", "1"}, {"XDEL", "st", "3"}, {"XTRIM", "st", "MAXLEN", "5"},
      {"XTRIM", "st", "MINID", "4"}, {"XSETID", "st", "9"}, {"XGROUP", "CREATE", "st", "g", "0"},
      {"XGROUP", "CREATE", "st2", "g", "$", "MKSTREAM"}, {"XGROUP", "CREATECONSUMER", "st", "g", "c"},
      {"XGROUP", "CREATECONSUMER", "st", "g", "c"}, {"XADD", "st", "10", "f", "v"},
      {"XREADGROUP", "GROUP", "g", "d", "STREAMS", "st", ">"}, {"XACK", "st", "g", "10"},
      {"XCLAIM", "st", "g", "e", "0", "10", "FORCE", "JUSTID"}, {"XAUTOCLAIM", "st", "g", "c", "0", "0", "JUSTID"},
      {"XGROUP", "SETID", "st", "g", "$"}, {"XGROUP", "DELCONSUMER", "st", "g", "nobody"},
      {"XGROUP", "DELCONSUMER", "st", "g", "d"}, {"XGROUP", "DESTROY", "st", "g"}, {"XGROUP", "DESTROY", "st", "g"},
      {"COPY", "st", "st3"}, {"RENAME", "st3", "st4"}, {"DEL", "st4", "st2"},
      {"MULTI"}, {"SET", "tx", "1"}, {"LPUSH", "txl", "a"}, {"RPUSH", "txl", "b"}, {"LMOVE", "txl", "txl", "LEFT", "RIGHT"},
      {"ZADD", "txz", "INCR", "1", "m"}, {"SMOVE", "set2", "set9", "c"}, {"EXEC"},
      {"SWAPDB", "0", "1"}, {"SWAPDB", "0", "1"}, {"FLUSHDB"}, {"SET", "last", "v"}, {"FLUSHALL"},
  };
  lockcheck::testing::RedisServer server;
  RawConnection real(server.host(), server.port());
  RawConnection real_subscriber(server.host(), server.port());
  Node node(NodeOptions{.clock = real_unix_time_ms});
  RespConnection mock(1, ConnectionLimits{}, "");
  RespConnection mock_subscriber(2, ConnectionLimits{}, "");
  node.set_publish_sink([&](std::int64_t client_id, const Reply& message) {
    if (client_id == 2) mock_subscriber.push(message);
  });
  const std::string configure = encode_request({"CONFIG", "SET", "notify-keyspace-events", "KEAn"});
  const std::string subscribe = encode_request({"PSUBSCRIBE", "*"});
  ASSERT_EQ(real.exchange(configure, 1), "+OK\r\n");
  ASSERT_EQ(real_subscriber.exchange(subscribe, 1), "*3\r\n$10\r\npsubscribe\r\n$1\r\n*\r\n:1\r\n");
  mock.receive(configure, node);
  mock_subscriber.receive(subscribe, node);
  for (const Command& command : commands) {
    const std::string request = encode_request(command);
    std::string real_reply;
    const std::string expected = notifications_after(real, real_subscriber, request, real_reply);
    mock.output().clear();
    mock_subscriber.output().clear();
    mock.receive(request, node);
    EXPECT_EQ(mock.output(), real_reply) << show(command);
    mock_subscriber.receive(encode_request({"PING"}), node);
    std::string actual = mock_subscriber.output();
    actual.erase(actual.size() - std::min(actual.size(), std::string("*2\r\n$4\r\npong\r\n$0\r\n\r\n").size()));
    EXPECT_EQ(actual, expected) << show(command);
  }
}

}  // namespace
}  // namespace lockcheck::mock::testing
