// A call times out at its send time plus the command timeout unless settled first, each call at its own
// deadline, as when every call had its own timeout event: while the process is paused, each deadline that
// passes is held in its place among the replies that arrive meanwhile, and a crashed process's calls never
// time out. BLPOP on an empty list never answers (and holds back what its connection sends after it); a 6 ms
// link each way makes a reply come 12 ms after its call.
#include <gtest/gtest.h>

#include <memory>

#include "core/world.hpp"
#include "direct_call.hpp"

namespace lockcheck::sim {
namespace {

constexpr std::int64_t kTimeoutUs = 10000;

RunConfig six_ms_links() {
  RunConfig config = one_client_config(2);  // two masters: a call to each travels on its own connection
  config.link.delay_min_us = 6000;
  config.link.delay_max_us = 6000;
  config.command_timeout_us = kTimeoutUs;
  return config;
}

bool timed_out(const PendingCall& call) {
  return call.settled && call.result.status == CallStatus::unknown && call.result.detail == "command timed out";
}

std::shared_ptr<PendingCall> send_now(World& world, Command command, std::size_t service = 0) {
  auto pending = std::make_shared<PendingCall>();
  world.send(world.client(0), service, std::move(command), pending);
  return pending;
}

TEST(SimCallDeadlines, EachCallTimesOutAtItsOwnDeadline) {
  World world(six_ms_links(), 1);
  const auto first = send_now(world, {"BLPOP", "empty", "0"});
  world.scheduler().run_until(3000, 1000000);
  const auto second = send_now(world, {"BLPOP", "empty", "0"});
  world.scheduler().run_until(kTimeoutUs - 1, 1000000);
  EXPECT_FALSE(first->settled);
  world.scheduler().run_until(kTimeoutUs, 1000000);
  EXPECT_TRUE(timed_out(*first));
  EXPECT_FALSE(second->settled) << "timed out at the first call's deadline, 3 ms early";
  world.scheduler().run_until(3000 + kTimeoutUs - 1, 1000000);
  EXPECT_FALSE(second->settled);
  world.scheduler().run_until(3000 + kTimeoutUs, 1000000);
  EXPECT_TRUE(timed_out(*second));
}

TEST(SimCallDeadlines, AReplyBeforeTheDeadlineWins) {
  RunConfig config = six_ms_links();
  config.link.delay_min_us = config.link.delay_max_us = 100;
  World world(config, 1);
  const auto call = send_now(world, {"SET", "k", "v"});
  world.scheduler().run_until(5 * kTimeoutUs, 1000000);
  ASSERT_TRUE(call->settled);
  EXPECT_TRUE(call->result.replied());
}

// Call 1 never answers (deadline 10 ms); call 2, sent at 3 ms to the other master, is due at 13 ms and its
// reply comes at 15 ms.
// The process is paused from 1 ms to 20 ms: at its resumption what came due happens in the order it came due,
// so call 2 times out before its late reply, as it would have unpaused.
TEST(SimCallDeadlines, APausedProcessMeetsEachDeadlineInItsPlaceAmongTheReplies) {
  World world(six_ms_links(), 1);
  const auto never = send_now(world, {"BLPOP", "empty", "0"});
  world.scheduler().run_until(3000, 1000000);
  const auto late = send_now(world, {"SET", "k", "v"}, 1);
  world.scheduler().run_until(3500, 1000000);
  world.client(0).pause();
  world.scheduler().run_until(20000, 1000000);
  EXPECT_FALSE(never->settled);
  EXPECT_FALSE(late->settled);
  world.client(0).resume();
  world.scheduler().run_until(20000, 1000000);
  EXPECT_TRUE(timed_out(*never));
  EXPECT_TRUE(timed_out(*late)) << "its reply, 2 ms after its deadline, got in first";
}

// The control: unpaused, the same late reply loses to its deadline too.
TEST(SimCallDeadlines, UnpausedTheLateReplyLosesToo) {
  World world(six_ms_links(), 1);
  const auto late = send_now(world, {"SET", "k", "v"}, 1);
  world.scheduler().run_until(20000, 1000000);
  EXPECT_TRUE(timed_out(*late));
}

TEST(SimCallDeadlines, ACrashedProcessesCallsNeverTimeOut) {
  World world(six_ms_links(), 1);
  const auto call = send_now(world, {"BLPOP", "empty", "0"});
  world.scheduler().run_until(1000, 1000000);
  world.client(0).crash();
  world.scheduler().run_until(5 * kTimeoutUs, 1000000);
  EXPECT_FALSE(call->settled);
}

}  // namespace
}  // namespace lockcheck::sim
