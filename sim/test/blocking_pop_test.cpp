// Blocking pops through the simulated network: a BLPOP waits on the node until another client's push serves
// it, or until its timeout passes on the node's (skewed, drifting) clock; the other client is never held up.
#include <gtest/gtest.h>

#include <memory>

#include "core/simulate.hpp"
#include "core/world.hpp"

namespace lockcheck::sim {
namespace {

RunConfig two_clients_one_node(std::int64_t node_drift_ppm = 0) {
  RunConfig config;
  config.clients = std::vector<ClientConfig>(2);
  config.nodes = std::vector<NodeConfig>(1);
  config.nodes[0].clock.drift_ppm = node_drift_ppm;
  config.link.delay_min_us = 100;
  config.link.delay_max_us = 100;
  config.command_timeout_us = 60000000;
  return config;
}

std::shared_ptr<PendingCall> send(World& world, int client, Command command) {
  auto pending = std::make_shared<PendingCall>();
  world.send(world.client(client), 0, std::move(command), pending);
  return pending;
}

void run_ms(World& world, std::int64_t ms) { world.scheduler().run_until(world.scheduler().now() + ms * 1000, 1000000); }

TEST(SimBlockingPop, WaitsForAnotherClientsPush) {
  World world(two_clients_one_node(), 1);
  auto waiter = send(world, 0, {"BLPOP", "queue", "0"});
  run_ms(world, 50);
  EXPECT_FALSE(waiter->settled);
  auto pusher = send(world, 1, {"RPUSH", "queue", "job"});
  run_ms(world, 1);
  ASSERT_TRUE(pusher->settled);
  EXPECT_EQ(pusher->result.reply, Reply::integer_reply(1));
  ASSERT_TRUE(waiter->settled);
  EXPECT_EQ(waiter->result.reply, Reply::array({Reply::bulk("queue"), Reply::bulk("job")}));
}

TEST(SimBlockingPop, TimesOutOnTheNodeClock) {
  // The node's clock runs 10% fast: a 1 s timeout ends after about 0.909 s of true time.
  World world(two_clients_one_node(100'000), 1);
  auto waiter = send(world, 0, {"BLPOP", "queue", "1"});
  run_ms(world, 880);
  EXPECT_FALSE(waiter->settled);
  run_ms(world, 60);
  ASSERT_TRUE(waiter->settled);
  EXPECT_EQ(waiter->result.reply, Reply::null_array());  // "*-1" on RESP2, as redis-server answers a timeout
  auto pusher = send(world, 1, {"RPUSH", "queue", "job"});
  run_ms(world, 1);
  EXPECT_EQ(pusher->result.reply, Reply::integer_reply(1));  // nobody waits any more: the job stays
}

}  // namespace
}  // namespace lockcheck::sim
