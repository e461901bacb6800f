// Runs lib/README.md's example of each lock type (lib/examples/) against private redis-servers, and checks what
// each prints: an example that ran without throwing but skipped its section (a lost lock) or printed the wrong
// token would otherwise pass.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#define LOCKCHECK_EXAMPLE_NO_MAIN
#include "../examples/fenced_mutex.cpp"
#include "../examples/redisson_mutex.cpp"
#include "../examples/redlock_mutex.cpp"
#include "../examples/replicated_mutex.cpp"
#include "../examples/shared_mutex.cpp"
#include "../examples/counting_semaphore.cpp"
#include "../examples/latch.cpp"
#include "../examples/fair_mutex.cpp"
#include "hiredis_client.hpp"
#include "redis_server.hpp"

namespace {

using lockcheck::testing::RedisServer;

// What `example` writes to standard output.
template <typename Example>
std::string printed_by(Example example) {
  ::testing::internal::CaptureStdout();
  try {
    example();
  } catch (...) {
    std::fflush(stdout);
    ::testing::internal::GetCapturedStdout();
    throw;
  }
  std::fflush(stdout);
  return ::testing::internal::GetCapturedStdout();
}

TEST(Examples, FencedMutex) {
  RedisServer server;
  // A fresh server's first fencing token.
  EXPECT_EQ(printed_by([&] { write_with_fence(server.host(), server.port()); }), "write ledger with fencing token 1\n");
}

TEST(Examples, RedissonMutex) {
  RedisServer server;
  EXPECT_EQ(printed_by([&] { nested_sections(server.host(), server.port()); }), "holding 2 times\n");
}

TEST(Examples, SharedMutex) {
  RedisServer server;
  EXPECT_EQ(printed_by([&] { read_then_write(server.host(), server.port()); }), "reading the catalog\nupdating the catalog\n");
}

TEST(Examples, CountingSemaphore) {
  RedisServer server;
  EXPECT_EQ(printed_by([&] { use_a_pool_slot(server.host(), server.port()); }), "running 2 reports\n");
}

TEST(Examples, Latch) {
  RedisServer server;
  EXPECT_EQ(printed_by([&] { wait_for_three_workers(server.host(), server.port()); }), "all 3 workers done\n");
}

TEST(Examples, FairMutex) {
  RedisServer server;
  EXPECT_EQ(printed_by([&] { settle_in_turn(server.host(), server.port()); }),
            "settling the ledger\nauditing the ledger\n");
}

TEST(Examples, RedlockMutex) {
  RedisServer first, second, third;
  EXPECT_EQ(printed_by([&] { lock_on_quorum(first.host(), {first.port(), second.port(), third.port()}); }),
            "building the report\n");
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
  EXPECT_EQ(printed_by([&] { lock_on_replicated_master(master.host(), master.port()); }), "issuing invoice 7\n");
}

}  // namespace
