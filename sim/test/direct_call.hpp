#pragma once
// Shorthand for tests that drive a World by hand: one client, fixed 100 us links, and a call that sends a
// command from client 0 to the master (service 0) and runs the scheduler until the reply is surely back.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/world.hpp"

namespace lockcheck::sim {

inline RunConfig one_client_config(std::size_t nodes) {
  RunConfig config;
  config.clients = std::vector<ClientConfig>(1);
  config.nodes = std::vector<NodeConfig>(nodes);
  config.link.delay_min_us = 100;
  config.link.delay_max_us = 100;
  config.command_timeout_us = 60000000;
  return config;
}

// The reply as redis-cli prints it; runs `run_us` of simulated time (the round trip is 200 us).
inline std::string call_master(World& world, Command command, std::int64_t run_us = 1000) {
  auto pending = std::make_shared<PendingCall>();
  world.send(world.client(0), 0, std::move(command), pending);
  world.scheduler().run_until(world.scheduler().now() + run_us, 1000000);
  EXPECT_TRUE(pending->settled && pending->result.replied());
  return to_string(pending->result.reply);
}

}  // namespace lockcheck::sim
