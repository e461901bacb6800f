// TCP order on one connection: two commands a client sends back to back reach the node, and their replies
// the client, in the order they were sent, whatever each link delay drew; after a call timed out the port
// drops the connection, so a command sent next may overtake one still on its way.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/world.hpp"
#include "direct_call.hpp"
#include "redis/server/node.hpp"

namespace lockcheck::sim {
namespace {

RunConfig jittery_links(std::int64_t command_timeout_us) {
  RunConfig config = one_client_config(1);
  config.link.delay_min_us = 0;
  config.link.delay_max_us = 20000;
  config.command_timeout_us = command_timeout_us;
  return config;
}

struct TwoCalls {
  std::string value_after;      // GET k once both ran
  bool second_replied_first = false;
};

// Sends SET k first, then SET k second at once on client 0's connection; runs event by event for 100 ms.
TwoCalls send_two_sets(World& world) {
  auto first = std::make_shared<PendingCall>();
  auto second = std::make_shared<PendingCall>();
  world.send(world.client(0), 0, {"SET", "k", "first"}, first);
  world.send(world.client(0), 0, {"SET", "k", "second"}, second);
  TwoCalls out;
  const TrueTime end_us = world.scheduler().now() + 100000;
  for (int event = 0; event < 1000 && world.scheduler().now() < end_us; ++event) {
    world.scheduler().run_until(end_us, 1);
    if (second->settled && second->result.replied() && !(first->settled && first->result.replied())) {
      out.second_replied_first = true;
    }
  }
  out.value_after = call_master(world, {"GET", "k"}, 100000);
  return out;
}

TEST(SimConnectionOrder, CommandsAndRepliesOnOneConnectionArriveInTheOrderSent) {
  for (std::uint64_t seed = 1; seed <= 64; ++seed) {
    World world(jittery_links(60000000), seed);
    const TwoCalls calls = send_two_sets(world);
    EXPECT_EQ(calls.value_after, "\"second\"") << "seed " << seed << ": the later SET ran first";
    EXPECT_FALSE(calls.second_replied_first) << "seed " << seed << ": the later reply overtook the earlier";
  }
}

// A call that timed out ends its connection (the production port drops it): what is sent next goes on a new
// connection and may arrive before what is still in flight on the old one, as over TCP.
TEST(SimConnectionOrder, AfterATimeoutTheNextCommandMayOvertakeTheOldConnections) {
  int overtaken = 0;
  for (std::uint64_t seed = 1; seed <= 64; ++seed) {
    World world(jittery_links(1000), seed);
    auto old = std::make_shared<PendingCall>();
    world.send(world.client(0), 0, {"SET", "k", "old"}, old);
    world.scheduler().run_until(world.scheduler().now() + 1500, 1000000);  // past the 1 ms timeout
    if (old->settled && old->result.replied()) continue;  // it beat the timeout: nothing left in flight
    auto fresh = std::make_shared<PendingCall>();
    world.send(world.client(0), 0, {"SET", "k", "fresh"}, fresh);
    world.scheduler().run_until(world.scheduler().now() + 100000, 1000000);
    const mock::Value& stored = world.node(0).mock().keyspace().database(0).entries.at("k").value;
    const std::string value = std::get<std::string>(stored);
    if (value == "old") ++overtaken;
  }
  EXPECT_GT(overtaken, 0) << "no seed let a new connection's SET overtake the timed-out one's";
}

// A WAIT on a dropped connection still runs there, but answers nobody: it must not leave its request on the node
// for the next command of the process to take (a GET would then be parked as a WAIT and answered with a count).
TEST(SimConnectionOrder, AWaitOnADroppedConnectionLeavesNothingForTheNextCommand) {
  RunConfig config = one_client_config(2);
  config.nodes[1].replica_of = 0;
  config.link.delay_min_us = 1000;
  config.link.delay_max_us = 1000;
  config.command_timeout_us = 8000;
  World world(config, 1);
  world.apply(FaultSpec{.kind = FaultKind::slow_node, .node = 0, .duration_us = 20000});
  auto waited = std::make_shared<PendingCall>();
  world.send(world.client(0), 0, {"WAIT", "1", "0"}, waited);  // arrives at 21 ms, after its 8 ms timeout
  world.apply(FaultSpec{.kind = FaultKind::slow_node, .node = 0, .duration_us = 0});
  world.scheduler().run_until(world.scheduler().now() + 30000, 1000000);
  ASSERT_TRUE(waited->settled);
  EXPECT_FALSE(waited->result.replied()) << "the WAIT was meant to time out";
  EXPECT_EQ(call_master(world, {"GET", "k"}, 5000), to_string(Reply::nil())) << "the GET was answered as a WAIT";
}

}  // namespace
}  // namespace lockcheck::sim
