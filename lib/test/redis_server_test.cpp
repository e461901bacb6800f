// The test support's private redis-server: a port another server holds must not be taken for one's own.
#include "redis_server.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "hiredis_client.hpp"

namespace lockcheck::testing {
namespace {

// Two tests that drew the same free port would otherwise share one server, one flushing or pausing it under
// the other (seen in CI as a 5 s read timeout in the differential test).
TEST(RedisServer, APortAnotherServerHoldsIsRefusedNotShared) {
  RedisServer holder;
  EXPECT_THROW(RedisServer::on_port(holder.port()), std::runtime_error);
  HiredisClient client(holder);
  EXPECT_EQ(client.call({"PING"}).text, "PONG");
}

TEST(RedisServer, AFreePortGivesAServerOfItsOwn) {
  const int port = find_free_port();
  const auto server = RedisServer::on_port(port);
  HiredisClient client(*server);
  EXPECT_EQ(client.call({"PING"}).text, "PONG");
}

}  // namespace
}  // namespace lockcheck::testing
