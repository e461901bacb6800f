// The RESP2 server: parser limits on raw bytes, and a live server on a free loopback port talked to
// with hiredis and with raw (malformed) bytes.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <thread>

#include "hiredis_client.hpp"
#include "lockcheck/errors.hpp"
#include "lockcheck/mutex.hpp"
#include "redis/wire/real_clock.hpp"
#include "redis/wire/resp_server.hpp"
#include "live_server.hpp"

namespace lockcheck::mock::testing {

using lockcheck::testing::HiredisClient;
namespace {

TEST(RespParser, MultibulkInlineAndPipelining) {
  RespParser parser;
  parser.feed("*2\r\n$3\r\nGET\r\n$1\r\nk\r\nPING\r\n*1\r\n$4\r\nPI");
  Command command;
  std::string error;
  ASSERT_EQ(parser.next(command, error), RespParser::Status::command);
  EXPECT_EQ(command, (Command{"GET", "k"}));
  ASSERT_EQ(parser.next(command, error), RespParser::Status::command);
  EXPECT_EQ(command, (Command{"PING"}));
  EXPECT_EQ(parser.next(command, error), RespParser::Status::need_more);
  parser.feed("NG\r\n");
  ASSERT_EQ(parser.next(command, error), RespParser::Status::command);
  EXPECT_EQ(command, (Command{"PING"}));
  parser.feed("set \"a b\" 'c d'\r\n");
  ASSERT_EQ(parser.next(command, error), RespParser::Status::command);
  EXPECT_EQ(command, (Command{"set", "a b", "c d"}));
}

TEST(RespParser, MalformedAndOversizedInputIsAnError) {
  struct Case {
    std::string bytes;
    std::string error;
  };
  const Case cases[] = {
      {"*abc\r\n", "ERR Protocol error: invalid multibulk length"},
      {"*99999999999\r\n", "ERR Protocol error: invalid multibulk length"},
      {"*1\r\nx\r\n", "ERR Protocol error: expected '$', got 'x'"},
      {"*1\r\n$-5\r\n", "ERR Protocol error: invalid bulk length"},
      {"*1\r\n$999999999999\r\n", "ERR Protocol error: invalid bulk length"},
      {"set \"a\r\n", "ERR Protocol error: unbalanced quotes in request"},
      {std::string(70'000, 'x'), "ERR Protocol error: too big inline request"},
  };
  for (const Case& c : cases) {
    RespParser parser;
    parser.feed(c.bytes);
    Command command;
    std::string error;
    EXPECT_EQ(parser.next(command, error), RespParser::Status::error) << c.bytes.substr(0, 40);
    EXPECT_EQ(error, c.error);
  }
  RespParser small(RespLimits{.max_bulk_bytes = 100, .max_array_elements = 10, .max_inline_bytes = 100, .max_request_bytes = 1000});
  EXPECT_FALSE(small.feed(std::string(2000, 'x')));  // never buffers past the limit
}

TEST_F(LiveServer, AnswersHiredis) {
  HiredisClient client("127.0.0.1", server_->port());
  EXPECT_EQ(client.call({"PING"}), Reply::status("PONG"));
  EXPECT_EQ(client.call({"SET", "lock", "t1", "PX", "30000", "NX"}), Reply::ok());
  EXPECT_EQ(client.call({"GET", "lock"}), Reply::bulk("t1"));
  EXPECT_EQ(client.call({"EVAL", "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0",
                         "1", "lock", "t1"}),
            Reply::integer_reply(1));
  EXPECT_EQ(client.call({"GET", "lock"}), Reply::nil());
  EXPECT_EQ(client.call({"HSET", "h", "a", "1"}), Reply::integer_reply(1));
  EXPECT_EQ(client.call({"HGETALL", "h"}), Reply::array({Reply::bulk("a"), Reply::bulk("1")}));
}

TEST_F(LiveServer, PipeliningAndPubSub) {
  EXPECT_EQ(raw_exchange("PING\r\n*1\r\n$4\r\nPING\r\nECHO hi\r\nQUIT\r\n"), "+PONG\r\n+PONG\r\n$2\r\nhi\r\n+OK\r\n");
  HiredisClient subscriber("127.0.0.1", server_->port());
  EXPECT_EQ(subscriber.call({"SUBSCRIBE", "ch"}), Reply::array({Reply::bulk("subscribe"), Reply::bulk("ch"), Reply::integer_reply(1)}));
  HiredisClient publisher("127.0.0.1", server_->port());
  EXPECT_EQ(publisher.call({"PUBLISH", "ch", "wake"}), Reply::integer_reply(1));
}

// A raw connection that stays open: send bytes, read until `expected` bytes arrived or 5 s passed.
class RawClient {
 public:
  explicit RawClient(int port) : fd_(socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
    EXPECT_EQ(connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    timeval timeout{5, 0};
    setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  }
  ~RawClient() { close(fd_); }
  RawClient(const RawClient&) = delete;
  RawClient& operator=(const RawClient&) = delete;
  void send_bytes(const std::string& bytes) { (void)!send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL); }
  std::string read(std::size_t expected) {
    std::string received;
    char chunk[4096];
    for (int i = 0; i < 1000 && received.size() < expected; ++i) {
      ssize_t n = recv(fd_, chunk, sizeof chunk, 0);
      if (n <= 0) break;
      received.append(chunk, static_cast<std::size_t>(n));
    }
    return received;
  }

 private:
  int fd_;
};

// A client blocked in BLPOP holds back its own pipelined commands, never the other clients'.
TEST_F(LiveServer, BlockingPopWaitsForAPushWithoutBlockingOthers) {
  RawClient waiter(server_->port());
  waiter.send_bytes("BLPOP q 0\r\nPING\r\n");
  HiredisClient other("127.0.0.1", server_->port());
  EXPECT_EQ(other.call({"PING"}), Reply::status("PONG"));  // served while the waiter is blocked
  EXPECT_EQ(other.call({"LLEN", "q"}), Reply::integer_reply(0));
  EXPECT_EQ(other.call({"RPUSH", "q", "job"}), Reply::integer_reply(1));
  const std::string served = "*2\r\n$1\r\nq\r\n$3\r\njob\r\n+PONG\r\n";
  EXPECT_EQ(waiter.read(served.size()), served);
  EXPECT_EQ(other.call({"EXISTS", "q"}), Reply::integer_reply(0));
  // A timeout on the real clock (0.2 s; the read allows 5 s): a null array, as redis-server answers it.
  waiter.send_bytes("BLPOP q 0.2\r\n");
  EXPECT_EQ(waiter.read(5), "*-1\r\n");
}

TEST_F(LiveServer, MalformedInputGetsAnErrorAndTheConnectionCloses) {
  EXPECT_EQ(raw_exchange("*abc\r\n"), "-ERR Protocol error: invalid multibulk length\r\n");
  EXPECT_EQ(raw_exchange("PING\r\n*1\r\n$999999999999\r\n"), "+PONG\r\n-ERR Protocol error: invalid bulk length\r\n");
  EXPECT_EQ(raw_exchange(std::string(100'000, 'x')), "-ERR Protocol error: too big inline request\r\n");
  // The server is still fine.
  HiredisClient client("127.0.0.1", server_->port());
  EXPECT_EQ(client.call({"PING"}), Reply::status("PONG"));
}

// Clients and scripts stop a server with SHUTDOWN [NOSAVE|SAVE]: as redis-server, the served mock stops
// without answering it (the replies still owed on that connection are dropped too).
TEST_F(LiveServer, ShutdownStopsTheServerWithoutAReply) {
  const std::string refused = raw_exchange(
      "SHUTDOWN ABORT\r\nSHUTDOWN NOSAVE SAVE\r\nSHUTDOWN LATER\r\nMULTI\r\nSHUTDOWN\r\nEXEC\r\nCOMMAND INFO shutdown\r\nQUIT\r\n");
  EXPECT_TRUE(refused.starts_with(
      "-ERR No shutdown in progress.\r\n-ERR syntax error\r\n-ERR syntax error\r\n+OK\r\n"
      "-ERR Command not allowed inside a transaction\r\n-EXECABORT Transaction discarded because of previous errors.\r\n*1\r\n"))
      << refused;
  EXPECT_TRUE(refused.ends_with("+OK\r\n")) << refused;
  EXPECT_EQ(stopped_.wait_for(std::chrono::seconds(0)), std::future_status::timeout);  // still serving
  EXPECT_EQ(raw_exchange("PING\r\nSHUTDOWN NOSAVE\r\nPING\r\n"), "");
  EXPECT_EQ(stopped_.wait_for(std::chrono::seconds(5)), std::future_status::ready);
}

TEST_F(LiveServer, InfoShowsTheClientLimitTheServerEnforces) {
  HiredisClient client("127.0.0.1", server_->port());
  EXPECT_NE(client.call({"INFO", "clients"}).text.find("maxclients:1024\r\n"), std::string::npos);
  EXPECT_EQ(client.call({"CONFIG", "GET", "maxclients"}), Reply::array({Reply::bulk("maxclients"), Reply::bulk("1024")}));
}

TEST(ServeOptions, BindsLoopbackWithoutAPasswordUnlessTold) {
  EXPECT_EQ(ServeOptions{}.host, "127.0.0.1");
  EXPECT_TRUE(ServeOptions{}.requirepass.empty());
}

// `lockcheck serve --requirepass`: nothing runs before AUTH, as on redis-server with requirepass.
class PasswordServer : public LiveServer {
 protected:
  ServeOptions options() const override {
    return ServeOptions{.host = "127.0.0.1", .port = 0, .requirepass = "s3cret"};
  }
};

TEST_F(PasswordServer, CommandsBeforeAuthGetNoauth) {
  EXPECT_EQ(raw_exchange("SET k v\r\nEVAL \"return 1\" 0\r\nQUIT\r\n"),
            "-NOAUTH Authentication required.\r\n-NOAUTH Authentication required.\r\n+OK\r\n");
  EXPECT_EQ(raw_exchange("AUTH wrong\r\nAUTH admin s3cret\r\nGET k\r\nQUIT\r\n"),
            "-WRONGPASS invalid username-password pair or user is disabled.\r\n"
            "-WRONGPASS invalid username-password pair or user is disabled.\r\n"
            "-NOAUTH Authentication required.\r\n+OK\r\n");
  EXPECT_EQ(raw_exchange("AUTH s3cret\r\nSET k v\r\nAUTH default s3cret\r\nGET k\r\nQUIT\r\n"),
            "+OK\r\n+OK\r\n+OK\r\n$1\r\nv\r\n+OK\r\n");
  EXPECT_EQ(raw_exchange("AUTH s3cret\r\nDBSIZE\r\nQUIT\r\n"), "+OK\r\n:1\r\n+OK\r\n")
      << "only the authenticated connection wrote";
}

TEST_F(PasswordServer, TheLibraryLocksWithThePasswordAndIsRefusedWithout) {
  ConnectionOptions connection{.host = "127.0.0.1", .port = server_->port(), .password = "s3cret"};
  Client client(connection);
  Mutex mutex(client, "lock:auth", MutexOptions{});
  EXPECT_TRUE(mutex.try_lock());
  mutex.unlock();
  connection.password = "wrong";
  EXPECT_THROW(Client{connection}, ConnectionError);
  connection.password.clear();
  EXPECT_THROW(Client{connection}, ConnectionError) << "NOAUTH on the first command";
}

}  // namespace
}  // namespace lockcheck::mock::testing
