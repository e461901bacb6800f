// A long script on the served mock behaves as on Redis 7.0.15: past busy-reply-threshold other clients get
// -BUSY (texts checked with redis-cli against a real server) while it keeps running; SCRIPT KILL /
// FUNCTION KILL stop one that has not written, and its caller gets Redis's error; once it wrote it is
// UNKILLABLE. Real time: the threshold is 50 ms, and every wait below is bounded.
#include <gtest/gtest.h>

#include <future>

#include "hiredis_client.hpp"
#include "live_server.hpp"
#include "lockcheck/sha1.hpp"

namespace lockcheck::mock::testing {
namespace {

using lockcheck::testing::HiredisClient;

#define EXPECT_REPLY(actual, expected) EXPECT_EQ(to_string(actual), to_string(expected))

const Reply kBusyEval = Reply::error("BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.");
const Reply kBusyFunction =
    Reply::error("BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN NOSAVE.");
const Reply kUnkillable = Reply::error(
    "UNKILLABLE Sorry the script already executed write commands against the dataset. You can either wait the script "
    "termination or kill the server in a hard way using the SHUTDOWN NOSAVE command.");

class BusyScript : public LiveServer {
 protected:
  // Runs `command` on its own connection in the background; the future holds its reply.
  std::future<Reply> start(Command command) {
    return std::async(std::launch::async, [port = server_->port(), command] {
      HiredisClient caller("127.0.0.1", port);
      return caller.call(command);
    });
  }
  // PINGs until the server answers -BUSY (each PING waits while the script is not yet past the threshold).
  Reply wait_for_busy(HiredisClient& client) {
    Reply reply;
    for (int attempt = 0; attempt < 100'000; ++attempt) {
      reply = client.call({"PING"});
      if (reply.is_error()) return reply;
    }
    return reply;
  }
};

TEST_F(BusyScript, OthersGetBusyAndScriptKillStopsAReadOnlyScript) {
  HiredisClient other("127.0.0.1", server_->port());
  ASSERT_EQ(other.call({"CONFIG", "SET", "busy-reply-threshold", "50"}), Reply::ok());
  const std::string body = "local i = 0 while true do i = i + 1 end";
  auto caller = start({"EVAL", body, "0"});
  EXPECT_REPLY(wait_for_busy(other), kBusyEval);
  EXPECT_REPLY(other.call({"GET", "k"}), kBusyEval);
  EXPECT_REPLY(other.call({"FUNCTION", "STATS"}), kBusyEval);
  EXPECT_REPLY(other.call({"FUNCTION", "KILL"}), kBusyEval);
  EXPECT_REPLY(other.call({"SCRIPT", "KILL"}), Reply::ok());
  EXPECT_REPLY(caller.get(), Reply::error("ERR Script killed by user with SCRIPT KILL... script: " + sha1_hex(body) +
                                       ", on @user_script:1."));
  EXPECT_REPLY(other.call({"PING"}), Reply::status("PONG"));
  EXPECT_REPLY(other.call({"SCRIPT", "KILL"}), Reply::error("NOTBUSY No scripts in execution right now."));
}

// A served node with a small instruction limit: if anything but FUNCTION LOAD's 500 ms bounded a load, it would
// show here (with the default limit the two race, depending on the machine's speed).
class ServedLowInstructionLimit : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = std::make_unique<RespServer>(node_, ServeOptions{.host = "127.0.0.1", .port = 0});
    thread_ = std::thread([this] { server_->run(stop_); });
  }
  void TearDown() override {
    stop_ = true;
    thread_.join();
  }
  Node node_{NodeOptions{.clock = real_unix_time_ms, .script_instruction_limit = 1'000'000}};
  std::unique_ptr<RespServer> server_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

TEST_F(ServedLowInstructionLimit, FunctionLoadTimesOutAfterHalfASecondNotOnTheInstructionLimit) {
  HiredisClient client("127.0.0.1", server_->port());
  const Reply reply = client.call({"FUNCTION", "LOAD", "#!lua name=lib\nlocal a = 1\nwhile 1 do a = a + 1 end"});
  EXPECT_REPLY(reply, Reply::error("ERR Error registering functions: ERR FUNCTION LOAD timeout"));
  EXPECT_REPLY(client.call({"PING"}), Reply::status("PONG"));
}

TEST_F(BusyScript, FunctionKillAndTransactionsWhileBusy) {
  HiredisClient other("127.0.0.1", server_->port());
  ASSERT_EQ(other.call({"CONFIG", "SET", "busy-reply-threshold", "50"}), Reply::ok());
  ASSERT_EQ(other.call({"FUNCTION", "LOAD", "#!lua name=spin\nredis.register_function('spin', function() "
                                            "local i = 0 while true do i = i + 1 end end)"}),
            Reply::bulk("spin"));
  auto caller = start({"FCALL", "spin", "0"});
  EXPECT_REPLY(wait_for_busy(other), kBusyFunction);
  // MULTI is allowed while busy; a refused command inside it aborts the transaction.
  EXPECT_REPLY(other.call({"MULTI"}), Reply::ok());
  EXPECT_REPLY(other.call({"SET", "k", "v"}), kBusyFunction);
  EXPECT_REPLY(other.call({"DISCARD"}), Reply::ok());
  EXPECT_REPLY(other.call({"MULTI"}), Reply::ok());
  EXPECT_REPLY(other.call({"EXEC"}), Reply::error("EXECABORT Transaction discarded because of: " + kBusyFunction.text));
  EXPECT_REPLY(other.call({"EXEC"}), kBusyFunction);  // no transaction left: a plain refusal
  EXPECT_REPLY(other.call({"SCRIPT", "KILL"}), kBusyFunction);
  const Reply stats = other.call({"FUNCTION", "STATS"});
  ASSERT_EQ(stats.elements.size(), 4u);
  EXPECT_REPLY(stats.elements[1].elements.at(1), Reply::bulk("spin"));
  EXPECT_REPLY(stats.elements[1].elements.at(3), Reply::array({Reply::bulk("FCALL"), Reply::bulk("spin"), Reply::bulk("0")}));
  EXPECT_REPLY(other.call({"FUNCTION", "KILL"}), Reply::ok());
  EXPECT_REPLY(caller.get(), Reply::error("ERR Script killed by user with SCRIPT KILL... script: spin, on @user_function:2."));
  EXPECT_REPLY(other.call({"PING"}), Reply::status("PONG"));
}

TEST_F(BusyScript, AScriptThatWroteIsUnkillableUntilTheServerStops) {
  HiredisClient other("127.0.0.1", server_->port());
  ASSERT_EQ(other.call({"CONFIG", "SET", "busy-reply-threshold", "50"}), Reply::ok());
  auto caller = start({"EVAL", "redis.call('set', 'a', 'b') while true do end", "0"});
  EXPECT_REPLY(wait_for_busy(other), kBusyEval);
  EXPECT_REPLY(other.call({"SCRIPT", "KILL"}), kUnkillable);
  EXPECT_REPLY(other.call({"FUNCTION", "KILL"}), kUnkillable);
  stop_ = true;  // the script is aborted so the server can stop (Redis: SHUTDOWN NOSAVE)
  EXPECT_TRUE(caller.get().is_error());
}

}  // namespace
}  // namespace lockcheck::mock::testing
