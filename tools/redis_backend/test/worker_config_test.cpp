// The configuration a worker runs is the run's own, field for field.
#include "worker_config.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>

namespace lockcheck::redis_backend {
namespace {

TEST(WorkerConfig, EveryFieldSurvivesTheFile) {
  sim::RunConfig config;
  config.variant = "script";
  config.scripts = UserScripts{"return 1", "return 2", "return 3"};
  config.scripts.renew_name = "lua/my_renew.lua";
  config.command_timeout_us = 123000;
  config.lock.ttl = Millis(4321);
  config.lock.clock_drift_ppm = 77;
  config.lock.drift_floor = Millis(9);
  config.lock.retry = RetryPolicy{Micros(1234), Micros(56789), 42, 5, 6};
  config.workload = sim::WorkloadConfig{"k", 11, 12, 13, 14, 15, 16, sim::Fencing::reads_and_writes, 2, 17, 18, 19, 20};
  config.renewal.watchdog = true;
  config.workload.check_lease_before_write = true;
  config.workload.write_latency_min_us = 21;
  config.workload.write_latency_max_us = 22;
  config.workload.threads_per_process = 5;
  config.workload.permits = 3;
  config.workload.latch_count = 4;
  sim::LinkOverride slow;  // process 1's link to node 0, 700-746 ms: the proxy applies the mean
  slow.process = 1;
  slow.link.delay_min_us = 700'000;
  slow.link.delay_max_us = 746'000;
  config.link_overrides.push_back(slow);
  const std::string path = (std::filesystem::temp_directory_path() / ("worker-config-test-" + std::to_string(getpid()))).string();
  write_worker_config(config, path);
  const sim::RunConfig back = read_worker_config(path);
  // Writing what was read gives the same file: no field written is lost on the way back.
  write_worker_config(back, path + ".again");
  std::ifstream first(path), second(path + ".again");
  const std::string first_text{std::istreambuf_iterator<char>(first), {}}, second_text{std::istreambuf_iterator<char>(second), {}};
  std::filesystem::remove(path);
  std::filesystem::remove(path + ".again");
  EXPECT_EQ(first_text, second_text);
  EXPECT_EQ(back.scripts.renew, "return 3");
  EXPECT_EQ(back.scripts.renew_name, "lua/my_renew.lua");
  EXPECT_EQ(back.lock.retry.delay_max, Micros(56789));
  EXPECT_EQ(back.workload.readers_ppm, 20u);
  EXPECT_TRUE(back.workload.check_lease_before_write);
  EXPECT_EQ(back.workload.write_latency_max_us, 22);
  EXPECT_EQ(back.workload.threads_per_process, 5u);
  EXPECT_EQ(back.workload.permits, 3u);
  EXPECT_EQ(back.workload.latch_count, 4u);
  EXPECT_EQ(back.workload.fencing, sim::Fencing::reads_and_writes);
  EXPECT_TRUE(back.renewal.watchdog);
  // An external client's reply bound grows with its own slow link (reply_bound.hpp), so the worker knows it.
  EXPECT_EQ(sim::slowest_own_link_delay_us(back, 1), 723'000);
  EXPECT_EQ(sim::slowest_own_link_delay_us(back, 0), 0);
}

// On a cluster the worker's ClusterPort needs the addresses the nodes announce, in node order, and an external
// client's fronts the nodes' own ports too.
TEST(WorkerConfig, ClusterAddressesSurviveTheFile) {
  const std::string path = (std::filesystem::temp_directory_path() / ("worker-config-cluster-" + std::to_string(getpid()))).string();
  write_worker_config(sim::RunConfig{}, path, {"127.0.0.1:40001", "127.0.0.1:40002"}, {30001, 30002});
  const std::vector<std::string> addresses = read_cluster_addresses(path);
  const std::vector<int> server_ports = read_other_named_ports(path);
  write_worker_config(sim::RunConfig{}, path);
  const std::vector<std::string> none = read_cluster_addresses(path);
  std::filesystem::remove(path);
  EXPECT_EQ(addresses, (std::vector<std::string>{"127.0.0.1:40001", "127.0.0.1:40002"}));
  EXPECT_EQ(server_ports, (std::vector<int>{30001, 30002}));
  EXPECT_TRUE(none.empty());
}

// On a [sentinel] the worker's SentinelPort needs how many of the addresses are sentinels and the master's name.
TEST(WorkerConfig, TheSentinelsSurviveTheFile) {
  sim::RunConfig config;
  config.sentinel.sentinels = 3;
  config.sentinel.master_name = "orders";
  const std::string path = (std::filesystem::temp_directory_path() / ("worker-config-sentinel-" + std::to_string(getpid()))).string();
  write_worker_config(config, path, {"127.0.0.1:40001", "127.0.0.1:40002", "127.0.0.1:40003", "127.0.0.1:40004"});
  const sim::RunConfig back = read_worker_config(path);
  const std::vector<std::string> addresses = read_cluster_addresses(path);
  std::filesystem::remove(path);
  EXPECT_EQ(back.sentinel.sentinels, 3);
  EXPECT_EQ(back.sentinel.master_name, "orders");
  EXPECT_EQ(addresses.size(), 4u);
}

}  // namespace
}  // namespace lockcheck::redis_backend
