// The examples in scenarios/README.md parse: the documentation cannot drift from the loader.
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "scenario/scenario.hpp"

namespace lockcheck::sim {
namespace {

std::vector<std::string> toml_blocks() {
  std::ifstream in(LOCKCHECK_SCENARIOS_README);
  std::stringstream text;
  text << in.rdbuf();
  const std::string all = text.str();
  std::vector<std::string> out;
  const std::string open = "```toml\n";
  for (std::size_t at = all.find(open); at != std::string::npos; at = all.find(open, at)) {
    at += open.size();
    const std::size_t end = all.find("```", at);
    out.push_back(all.substr(at, end - at));
    at = end;
  }
  return out;
}

TEST(ScenarioReadme, CompleteExampleParses) {
  const auto blocks = toml_blocks();
  ASSERT_EQ(blocks.size(), 7u);
  const Scenario s = parse_scenario(blocks[0], "scenarios/example.toml");
  EXPECT_EQ(s.name, "pause-breaks-token");
  EXPECT_EQ(s.seeds.size(), 10u);
  EXPECT_EQ(s.config.nodes.size(), 2u);
  EXPECT_EQ(s.config.nodes[1].replica_of, 0);
  EXPECT_EQ(s.config.clients[1].clock.wall_offset_us, 3000000);
  ASSERT_EQ(s.config.faults.size(), 2u);
  EXPECT_EQ(s.config.faults[1].kind, FaultKind::failover);
  EXPECT_EQ(s.expectations.size(), 5u);
}

TEST(ScenarioReadme, ScriptsExampleParses) {
  const Scenario s = parse_scenario(toml_blocks().at(1), "/tmp/dir/mine.toml");
  EXPECT_EQ(s.scripts.acquire, "/tmp/dir/my_acquire.lua");
  EXPECT_EQ(s.scripts.renew, "/tmp/dir/my_renew.lua");
  EXPECT_TRUE(s.config.renewal.watchdog) << "the renew.lua runs only under the watchdog";
}

TEST(ScenarioReadme, StarvedExampleParses) {
  const Scenario s = parse_scenario(toml_blocks().at(6), "scenarios/starved.toml");
  ASSERT_EQ(s.expectations.size(), 1u);
  EXPECT_EQ(s.expectations[0].expected, Expectation::Expected::starved);
  EXPECT_EQ(s.expectations[0].because, "CROSSSLOT");
}

TEST(ScenarioReadme, ClientExampleParses) {
  const Scenario s = parse_scenario(toml_blocks().at(5), "scenarios/client.toml");
  EXPECT_EQ(s.backend, "redis");
  EXPECT_EQ(s.config.external.command, (std::vector<std::string>{"node", "tools/judge/adapters/redis_semaphore_mutex.js"}));
  EXPECT_EQ(s.config.external.keys, (std::vector<std::string>{"mutex:lock"}));
}

TEST(ScenarioReadme, TokenWaitExampleParses) {
  const Scenario s = parse_scenario(toml_blocks().at(4), "scenarios/wait.toml");
  EXPECT_EQ(s.config.variant, "token-wait");
  EXPECT_EQ(s.config.token_wait.replicas, 1);
  EXPECT_EQ(s.config.token_wait.wait_timeout, Millis(300));
}

TEST(ScenarioReadme, SentinelExampleParses) {
  const Scenario s = parse_scenario(toml_blocks().at(3), "scenarios/sentinel.toml");
  EXPECT_EQ(s.config.sentinel.sentinels, 3);
  EXPECT_EQ(s.config.sentinel.quorum, 2);
  EXPECT_EQ(s.config.sentinel.master_name, "mymaster");
  EXPECT_EQ(s.config.sentinel.down_after_us, 30000000);
  EXPECT_EQ(s.config.sentinel.min_replicas_max_lag_us, 10000000);
  EXPECT_EQ(s.config.sentinel.sentinels_on_master_side, 0);
  EXPECT_EQ(s.config.sentinel.failover_timeout_us, 180000000);
  EXPECT_EQ(s.config.sentinel.parallel_syncs, 1);
  ASSERT_EQ(s.config.nodes.size(), 3u);
  EXPECT_EQ(s.config.nodes[0].replica_of, -1);
  EXPECT_EQ(s.config.nodes[2].replica_of, 0);
}

TEST(ScenarioReadme, ClusterExampleParses) {
  const Scenario s = parse_scenario(toml_blocks().at(2), "scenarios/cluster.toml");
  EXPECT_EQ(s.config.cluster.shards, 3);
  EXPECT_EQ(s.config.cluster.replicas_per_shard, 1);
  EXPECT_EQ(s.config.nodes.size(), 6u);
  EXPECT_EQ(s.config.nodes[4].replica_of, 1);
  EXPECT_EQ(s.config.cluster.node_timeout_us, 15000000);
}

}  // namespace
}  // namespace lockcheck::sim
