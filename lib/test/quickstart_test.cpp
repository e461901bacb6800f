// Runs the README's quick start against a private redis-server.
#include <gtest/gtest.h>

#define LOCKCHECK_EXAMPLE_NO_MAIN
#include "../examples/quickstart.cpp"
#include "redis_server.hpp"

TEST(Quickstart, RunsAgainstARealServer) {
  lockcheck::testing::RedisServer server;
  EXPECT_NO_THROW(charge_order(server.host(), server.port()));
}
