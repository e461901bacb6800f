// The count-down latches against a real redis-server: Redisson's RCountDownLatch (`redisson-latch`), whose retried
// countDown counts twice and whose missing key reads open, beside `latch` / lockcheck::Latch, whose count_downs
// are recorded by participant, whose state stays after it opens and whose waiters re-poll.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "hiredis_client.hpp"
#include "lock_testing.hpp"
#include "lockcheck/broken/redisson_latch.hpp"
#include "lockcheck/latch.hpp"
#include "lockcheck/variants/latch_lock.hpp"
#include "redis_server.hpp"

namespace lockcheck {
namespace {

using namespace std::chrono_literals;
using Admin = testing::HiredisClient;
using testing::options_for;

// Forwards to a real port; the first EVAL or EVALSHA after `armed` is set runs, and its reply is lost.
class LoseOneScriptReply final : public Port {
 public:
  explicit LoseOneScriptReply(Port& inner) : inner_(inner) {}
  std::size_t node_count() const override { return inner_.node_count(); }
  Task<CallResult> call(std::size_t node, Command command) override {
    const bool lose = armed && (command[0] == "EVAL" || command[0] == "EVALSHA");
    CallResult result = co_await inner_.call(node, std::move(command));
    if (lose && result.replied() && !result.reply.is_error()) {
      armed = false;
      co_return CallResult::failed(CallStatus::unknown, "reply lost by the test");
    }
    co_return result;
  }
  bool armed = false;

 private:
  Port& inner_;
};

LockOptions quick() { return testing::quick_lock_options(5000ms); }

// Forwards to a real port, but answers every EVAL or EVALSHA with `answer` instead of the script's reply (a
// proxy or a server that does not run the script as sent).
class AnswerScriptsWith final : public Port {
 public:
  AnswerScriptsWith(Port& inner, Reply answer) : inner_(inner), answer_(std::move(answer)) {}
  std::size_t node_count() const override { return inner_.node_count(); }
  Task<CallResult> call(std::size_t node, Command command) override {
    if (command[0] == "EVAL" || command[0] == "EVALSHA") co_return CallResult::of(answer_);
    co_return co_await inner_.call(node, std::move(command));
  }

 private:
  Port& inner_;
  Reply answer_;
};

// --- redisson-latch ------------------------------------------------------------------------------------------

TEST(RedissonLatch, OpensAfterItsCountAndWakesAnAwaitingClient) {
  testing::RedisServer server;
  Client a(options_for(server)), b(options_for(server)), c(options_for(server));
  broken::RedissonLatch first(a.port(), a.clock(), a.entropy(), quick(), 2);
  broken::RedissonLatch second(b.port(), b.clock(), b.entropy(), quick(), 2);
  broken::RedissonLatch waiter(c.port(), c.clock(), c.entropy(), quick(), 2);
  run_sync(waiter.set_up("latch:basic"));
  EXPECT_EQ(Admin(server).get("latch:basic"), "2");
  EXPECT_EQ(run_sync(waiter.wait("latch:basic", Micros::zero())).status, LatchWaitStatus::timed_out);
  EXPECT_EQ(run_sync(first.count_down("latch:basic", "a", 1s)).remaining, 1);
  std::thread last([&] {
    std::this_thread::sleep_for(50ms);
    EXPECT_EQ(run_sync(second.count_down("latch:basic", "b", 1s)).remaining, 0);
  });
  const LatchWaitResult waited = run_sync(waiter.wait("latch:basic", Micros(5s)));
  last.join();
  EXPECT_EQ(waited.status, LatchWaitStatus::opened) << waited.detail;
  EXPECT_FALSE(Admin(server).exists("latch:basic")) << "RCountDownLatch deletes its counter at zero";
  EXPECT_THROW(broken::RedissonLatch(a.port(), a.clock(), a.entropy(), quick(), 0), InvalidArgument);
}

TEST(RedissonLatch, ACountDownRetriedAfterALostReplyCountsTwice) {
  testing::RedisServer server;
  Client client(options_for(server)), other(options_for(server));
  LoseOneScriptReply port(client.port());
  broken::RedissonLatch counter(port, client.clock(), client.entropy(), quick(), 2);
  broken::RedissonLatch waiter(other.port(), other.clock(), other.entropy(), quick(), 2);
  run_sync(counter.set_up("latch:retry"));
  run_sync(waiter.set_up("latch:retry"));  // before the count_downs, or its trySetCount would arm it again
  port.armed = true;  // the DECR runs, its reply is lost, and countDown is sent again
  const CountDownResult counted = run_sync(counter.count_down("latch:retry", "a", 1s));
  EXPECT_EQ(counted.status, CountDownStatus::counted);
  EXPECT_EQ(counted.attempts, 2u);
  EXPECT_EQ(counted.remaining, 0) << "the second DECR's reply";
  EXPECT_EQ(run_sync(waiter.wait("latch:retry", Micros::zero())).status, LatchWaitStatus::opened)
      << "one of two count_downs opened the latch";
}

TEST(RedissonLatch, AMissingCounterReadsOpenAndALateTrySetCountArmsItAgain) {
  testing::RedisServer server;
  Client client(options_for(server)), late(options_for(server));
  broken::RedissonLatch waiter(client.port(), client.clock(), client.entropy(), quick(), 2);
  // A failover that lost the trySetCount leaves no key, which getCount reads as 0.
  EXPECT_EQ(run_sync(waiter.count_down("latch:gone", "a", 1s)).remaining, 1) << "its own trySetCount ran first";
  Admin(server).call({"DEL", "latch:gone"});
  EXPECT_EQ(run_sync(waiter.wait("latch:gone", Micros::zero())).status, LatchWaitStatus::opened);
  // A client that sets the latch up after it opened (and was deleted) arms it again: it waits for nothing.
  broken::RedissonLatch latecomer(late.port(), late.clock(), late.entropy(), quick(), 2);
  run_sync(latecomer.set_up("latch:gone"));
  EXPECT_EQ(run_sync(latecomer.wait("latch:gone", Micros(Millis(200)))).status, LatchWaitStatus::timed_out);
}

// --- latch -----------------------------------------------------------------------------------------------------

TEST(LatchLock, ACountDownRetriedAfterALostReplyCountsOnce) {
  testing::RedisServer server;
  Client client(options_for(server)), other(options_for(server));
  LoseOneScriptReply port(client.port());
  LatchLock counter(port, client.clock(), client.entropy(), quick(), 2);
  LatchLock waiter(other.port(), other.clock(), other.entropy(), quick(), 2);
  port.armed = true;
  const CountDownResult counted = run_sync(counter.count_down("latch:retry", "a", 1s));
  EXPECT_EQ(counted.status, CountDownStatus::counted);
  EXPECT_EQ(counted.attempts, 2u);
  EXPECT_EQ(counted.remaining, 1);
  EXPECT_EQ(run_sync(waiter.wait("latch:retry", Micros::zero())).status, LatchWaitStatus::timed_out);
  EXPECT_EQ(run_sync(counter.count_down("latch:retry", "a", 1s)).remaining, 1) << "the same participant again";
  EXPECT_EQ(run_sync(counter.count_down("latch:retry", "b", 1s)).remaining, 0);
  EXPECT_EQ(run_sync(waiter.wait("latch:retry", Micros::zero())).status, LatchWaitStatus::opened);
}

TEST(LatchLock, AReplyThatIsNoCountNeitherOpensTheLatchNorCountsDown) {
  // The latch's scripts answer a count; anything else (nil, a status) is no count: a waiter must not read it as
  // 0 (open) while nobody counted down, nor a count_down report it as a remaining count.
  testing::RedisServer server;
  Client client(options_for(server));
  for (const Reply& answer : {Reply::nil(), Reply::ok(), Reply::bulk("0")}) {
    AnswerScriptsWith port(client.port(), answer);
    LatchLock latch(port, client.clock(), client.entropy(), quick(), 2);
    EXPECT_THROW(run_sync(latch.wait("latch:odd", Micros::zero())), RedisError) << to_string(answer);
    EXPECT_THROW(run_sync(latch.count_down("latch:odd", "a", 1s)), RedisError) << to_string(answer);
  }
}

TEST(LatchLock, ALatchNobodyCountedDownReadsClosedAndAnOpenOneStaysOpen) {
  testing::RedisServer server;
  Client client(options_for(server));
  LatchLock latch(client.port(), client.clock(), client.entropy(), quick(), 1);
  const LatchWaitResult closed = run_sync(latch.wait("latch:fresh", Micros(Millis(100))));
  EXPECT_EQ(closed.status, LatchWaitStatus::timed_out);
  EXPECT_GT(closed.polls, 1u) << "a waiter re-polls within its wait";
  ASSERT_EQ(run_sync(latch.count_down("latch:fresh", "a", 1s)).status, CountDownStatus::counted);
  EXPECT_EQ(run_sync(latch.wait("latch:fresh", Micros::zero())).status, LatchWaitStatus::opened);
  EXPECT_TRUE(Admin(server).exists("latch:fresh")) << "the state stays after it opens";
  EXPECT_GT(Admin(server).call({"PTTL", "latch:fresh"}).integer, 0) << "and expires in the end";
}

TEST(LatchLock, CountsDownOnlyOnceTheReplicasAcknowledge) {
  testing::RedisServer server;  // no replica: WAIT 1 never hears from one
  Client client(options_for(server));
  LatchLock latch(client.port(), client.clock(), client.entropy(), quick(), 1, LatchReplication{1, Millis(20)});
  const CountDownResult counted = run_sync(latch.count_down("latch:wait", "a", Micros(Millis(100))));
  EXPECT_EQ(counted.status, CountDownStatus::unknown) << "recorded on the master, but no replica acknowledged it";
  EXPECT_GE(counted.attempts, 2u);
}

// --- lockcheck::Latch -----------------------------------------------------------------------------------------

TEST(Latch, ThreadsCountDownAndAllWaitersSeeItOpen) {
  testing::RedisServer server;
  Client client(options_for(server));
  Latch latch(client, "latch:threads", 4);
  std::atomic<int> opened{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      latch.arrive_and_wait();
      ++opened;
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(opened.load(), 4);
  EXPECT_TRUE(latch.try_wait());
}

TEST(Latch, ANamedParticipantCountsOnceAndEveryClientMustAgreeOnTheCount) {
  testing::RedisServer server;
  Client client(options_for(server));
  Latch latch(client, "latch:named", 2);
  latch.count_down_as("worker-1");
  latch.count_down_as("worker-1");  // a restarted worker repeating itself
  EXPECT_FALSE(latch.wait_for(50ms));
  latch.count_down_as("worker-2");
  EXPECT_TRUE(latch.wait_for(50ms));
  Latch other(client, "latch:named", 3);
  EXPECT_THROW(other.try_wait(), RedisError);
  EXPECT_THROW(Latch(client, "latch:zero", 0), InvalidArgument);
  EXPECT_THROW(Latch(client, "", 1), InvalidArgument);
}

}  // namespace
}  // namespace lockcheck
