// SentinelPort over HiredisPort against real processes: a master, its replica and one redis-sentinel
// (Debian's package; tools/setup installs it), each on a free loopback port and stopped by pid. Skipped with
// a message when redis-sentinel is not installed.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <thread>

#include "lockcheck/client.hpp"
#include "lockcheck/hiredis_port.hpp"
#include "lockcheck/sentinel_port.hpp"
#include "lock_testing.hpp"
#include "redis_server.hpp"

namespace lockcheck {
namespace {

using namespace std::chrono_literals;

class RealSentinel : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::RedisServer::sentinel_installed()) {
      GTEST_SKIP() << "redis-sentinel is not installed (tools/setup installs Debian's redis-sentinel)";
    }
    master = std::make_unique<testing::RedisServer>();
    replica = std::make_unique<testing::RedisServer>(
        std::vector<std::string>{"--replicaof", master->host(), std::to_string(master->port())});
    // The sentinel learns the replicas from the master's INFO when it connects: attach the replica first.
    nodes = {{.host = master->host(), .port = master->port()}, {.host = replica->host(), .port = replica->port()}};
    direct = std::make_unique<HiredisPort>(nodes);
    ASSERT_TRUE(eventually([&] { return on(0, {"INFO", "replication"}).text.find("connected_slaves:1") != std::string::npos; }))
        << "the replica did not attach within 10 s";
    sentinel = testing::RedisServer::sentinel(
        "sentinel monitor mymaster " + master->host() + " " + std::to_string(master->port()) + " 1\n" +
        "sentinel down-after-milliseconds mymaster 1000\nsentinel failover-timeout mymaster 5000");
    nodes.push_back({.host = sentinel->host(), .port = sentinel->port()});
    direct = std::make_unique<HiredisPort>(nodes);
    ASSERT_TRUE(eventually([&] { return on(2, {"SENTINEL", "REPLICAS", "mymaster"}).elements.size() == 1; }))
        << "the sentinel did not see the replica within 10 s";
    for (const auto& node : nodes) addresses.push_back(node.host + ":" + std::to_string(node.port));
  }
  Reply on(std::size_t node, Command command) { return run_sync(direct->call(node, std::move(command))).reply; }
  // Polls `condition` every 50 ms for up to 10 s (a wide margin: real processes on a loaded machine).
  template <typename Condition>
  bool eventually(Condition condition) {
    for (int round = 0; round < 200; ++round) {
      if (condition()) return true;
      std::this_thread::sleep_for(50ms);
    }
    return false;
  }

  std::unique_ptr<testing::RedisServer> master, replica, sentinel;
  std::vector<ConnectionOptions> nodes;
  std::vector<std::string> addresses;
  std::unique_ptr<HiredisPort> direct;
};

TEST_F(RealSentinel, FindsTheMasterThroughTheSentinel) {
  HiredisPort connections(nodes);
  SentinelPort port(connections, addresses, {2}, "mymaster");
  EXPECT_EQ(run_sync(port.call(0, {"SET", "lock", "a"})).reply, Reply::ok());
  EXPECT_EQ(port.known_master(), 0u);
  EXPECT_EQ(on(0, {"GET", "lock"}), Reply::bulk("a"));
}

TEST_F(RealSentinel, AfterAFailoverTheDemotedMastersReadonlySendsTheCommandToTheNewOne) {
  HiredisPort connections(nodes);
  SentinelPort port(connections, addresses, {2}, "mymaster");
  ASSERT_EQ(run_sync(port.call(0, {"SET", "lock", "a"})).reply, Reply::ok());
  // Refused (NOGOODSLAVE) until the sentinel has heard from the replica itself: retried, bounded.
  Reply started;
  ASSERT_TRUE(eventually([&] { return !(started = on(2, {"SENTINEL", "FAILOVER", "mymaster"})).is_error(); }))
      << to_string(started);
  ASSERT_TRUE(eventually([&] {
    const Reply named = on(2, {"SENTINEL", "GET-MASTER-ADDR-BY-NAME", "mymaster"});
    return named.elements.size() == 2 && named.elements[1].text == std::to_string(replica->port());
  })) << "the sentinel did not promote the replica within 10 s";
  // The sentinel turns the old master into a replica when its next INFO (every 10 s) shows it still a master;
  // the test does now what that reconfiguration does, so as not to wait for it.
  ASSERT_FALSE(on(0, {"REPLICAOF", replica->host(), std::to_string(replica->port())}).is_error());
  ASSERT_EQ(on(0, {"SET", "probe", "x"}).error_code(), "READONLY");
  EXPECT_EQ(run_sync(port.call(0, {"SET", "lock", "b"})).reply, Reply::ok());
  EXPECT_EQ(port.known_master(), 1u);
  EXPECT_EQ(on(1, {"GET", "lock"}), Reply::bulk("b"));
}

// The public API on a Sentinel deployment: a Client given the data nodes and the sentinels locks on the master
// the sentinel names, and a second Client sees the lock held (lockcheck_judge_mutex on a [sentinel] is this).
TEST_F(RealSentinel, AMutexOfASentinelClientLocksOnTheNamedMaster) {
  const std::vector<ConnectionOptions> data_nodes(nodes.begin(), nodes.begin() + 2);
  const std::vector<ConnectionOptions> sentinels(nodes.begin() + 2, nodes.end());
  Client client(SentinelNodes{data_nodes, sentinels, "mymaster"});
  Client other(SentinelNodes{data_nodes, sentinels, "mymaster"});
  testing::expect_one_holder_at_a_time(client, other, "lock", [&](Command command) { return on(0, std::move(command)); });
  EXPECT_THROW(Client(SentinelNodes{data_nodes, sentinels, ""}), InvalidArgument);
  EXPECT_THROW(Client(SentinelNodes{data_nodes, {}, "mymaster"}), InvalidArgument);
}

}  // namespace
}  // namespace lockcheck
