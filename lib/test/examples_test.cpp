// Runs the README's example of each lock type (lib/examples/) against private redis-servers.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#define LOCKCHECK_EXAMPLE_NO_MAIN
#include "../examples/fenced_mutex.cpp"
#include "../examples/redisson_mutex.cpp"
#include "../examples/redlock_mutex.cpp"
#include "../examples/replicated_mutex.cpp"
#include "../examples/shared_mutex.cpp"
#include "hiredis_client.hpp"
#include "redis_server.hpp"

namespace {

using lockcheck::testing::RedisServer;

TEST(Examples, FencedMutex) {
  RedisServer server;
  EXPECT_NO_THROW(write_with_fence(server.host(), server.port()));
}

TEST(Examples, RedissonMutex) {
  RedisServer server;
  EXPECT_NO_THROW(nested_sections(server.host(), server.port()));
}

TEST(Examples, SharedMutex) {
  RedisServer server;
  EXPECT_NO_THROW(read_then_write(server.host(), server.port()));
}

TEST(Examples, RedlockMutex) {
  RedisServer first, second, third;
  EXPECT_NO_THROW(lock_on_quorum(first.host(), {first.port(), second.port(), third.port()}));
}

TEST(Examples, ReplicatedMutex) {
  RedisServer master{{"--repl-diskless-sync-delay", "0"}};
  RedisServer replica{{"--replicaof", master.host(), std::to_string(master.port())}};
  lockcheck::testing::HiredisClient master_admin(master);
  // WAIT counts only a replica the master sees online: wait (at most 10 s) for the first sync.
  for (int i = 0; i < 200; ++i) {
    if (master_admin.command({"INFO", "replication"}).text.find("state=online") != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_NO_THROW(lock_on_replicated_master(master.host(), master.port()));
}

}  // namespace
