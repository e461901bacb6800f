// Two threads of one simulated process waiting on the same pub/sub channel: each message wakes one waiter,
// the longest-waiting first, as HiredisPort's waiters take turns on the connection's queue. A later waiter
// must not push an earlier one out (which left it to sleep out its whole timeout).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/world.hpp"

namespace lockcheck::sim {
namespace {

struct Woken {
  int waiter = 0;
  std::string payload;  // empty: timed out
  std::int64_t at_us = 0;
};

Task<void> wait_for_message(World& world, int waiter, std::vector<Woken>& woken) {
  ClientProcess& process = world.client(0);
  const CallResult message = co_await process.port().await_message(0, "released", Micros(5'000'000));
  woken.push_back(Woken{waiter, message.replied() ? message.reply.text : std::string(), world.scheduler().now()});
}

// One process on one node, and what its waiters got.
class PubSubWaiters : public ::testing::Test {
 protected:
  static RunConfig one_process_one_node() {
    RunConfig config;
    config.clients = std::vector<ClientConfig>(1);
    config.nodes = std::vector<NodeConfig>(1);
    return config;
  }
  World world{one_process_one_node(), 3};
  ClientProcess& process = world.client(0);
  std::vector<Woken> woken;
};

TEST_F(PubSubWaiters, EachMessageWakesOneWaiterOldestFirst) {
  (void)process.spawn(wait_for_message(world, 1, woken));
  (void)process.spawn(wait_for_message(world, 2, woken));
  world.scheduler().at(100'000, [this] { process.receive_message(0, "released", "first"); });
  world.scheduler().at(200'000, [this] { process.receive_message(0, "released", "second"); });
  world.scheduler().run_until(10'000'000, 1'000'000);

  ASSERT_EQ(woken.size(), 2u);
  EXPECT_EQ(woken[0].waiter, 1);
  EXPECT_EQ(woken[0].payload, "first");
  EXPECT_EQ(woken[0].at_us, 100'000);
  EXPECT_EQ(woken[1].waiter, 2);
  EXPECT_EQ(woken[1].payload, "second") << "the second message wakes the second waiter, not its timeout";
  EXPECT_EQ(woken[1].at_us, 200'000);
}

TEST_F(PubSubWaiters, AWaiterThatTimedOutTakesNoLaterMessage) {
  (void)process.spawn(wait_for_message(world, 1, woken));
  world.scheduler().at(6'000'000, [this] {
    (void)process.spawn(wait_for_message(world, 2, woken));
    process.receive_message(0, "released", "late");
  });
  world.scheduler().run_until(20'000'000, 1'000'000);

  ASSERT_EQ(woken.size(), 2u);
  EXPECT_EQ(woken[0].waiter, 1);
  EXPECT_EQ(woken[0].payload, "") << "timed out";
  EXPECT_EQ(woken[1].waiter, 2);
  EXPECT_EQ(woken[1].payload, "late");
}

}  // namespace
}  // namespace lockcheck::sim
