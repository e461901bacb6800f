// A complete scenario file parses into exactly the RunConfig it describes; absent keys keep the defaults.
#include <gtest/gtest.h>

#include "scenario/scenario.hpp"

namespace lockcheck::sim {
namespace {

constexpr std::string_view kFull = R"(name = "pause-breaks-token"
description = "A holder paused past its TTL"
backend = "redis"
variant = "fenced"
duration_ms = 20000
seeds = 10
command_timeout_ms = 400
active_expiry_interval_ms = 50
max_events = 123456

[lock]
ttl_ms = 1000
drift_ppm = 20000
retry_delay_min_ms = 3
retry_delay_max_ms = 60
unknown_outcome_attempts = 4
drift_floor_ms = 5
max_attempts = 77
idempotent_attempts = 6

[clients]
count = 4
[[clients.clock]]
process = 1
offset_ms = 3000
drift_ppm = 50000
[[clients.clock]]
process = 3
offset_ms = -250
drift_ppm = -7000

[[nodes]]
offset_ms = 7
drift_ppm = 11
[[nodes]]
replica_of = 0
lag_min_ms = 2
lag_max_ms = 9
maxmemory_keys = 100
eviction = "allkeys-lru"
[[nodes]]
replica_of = 0
eviction = "allkeys-random"

[network]
delay_min_us = 150
delay_max_us = 450
request_loss_ppm = 1000
reply_loss_ppm = 2000

[workload]
key = "orders"
wait_ms = 1500
hold_min_ms = 11
hold_max_ms = 51
think_min_ms = 2
think_max_ms = 21
max_acquires_per_client = 99
fencing = true

[[faults]]
at_ms = 1000
kind = "pause"
process = 0
duration_ms = 3000

[[faults]]
at_ms = 2000
kind = "node_restart"
node = 0
mode = "aof_everysec"

[[faults]]
at_ms = 2500
kind = "client_clock_jump"
process = 2
delta_ms = -400

[[faults]]
at_ms = 3000
kind = "failover"
node = 2

[[faults]]
at_ms = 3500
kind = "loss"
reply_loss_ppm = 500000

[[faults]]
at_ms = 4000
kind = "heal"

[nemesis]
pause_every_ms = 5000
pause_min_ms = 100
pause_max_ms = 2000
crash_every_ms = 7000
restart_after_ms = 900
partition_every_ms = 8000
partition_min_ms = 10
partition_max_ms = 20
node_clock_jump_every_ms = 9000
node_clock_jump_max_ms = 30
node_crash_every_ms = 10000
node_restart_after_ms = 400
restart_mode = "kept"

[expect]
mutual_exclusion_server = "holds"
mutual_exclusion_client = "violated"
bounded_unavailability = "holds"
)";

TEST(ScenarioValid, TopLevelAndSeeds) {
  const Scenario s = parse_scenario(kFull, "scenarios/x.toml");
  EXPECT_EQ(s.name, "pause-breaks-token");
  EXPECT_EQ(s.config.scenario, "pause-breaks-token");
  EXPECT_EQ(s.path, "scenarios/x.toml");
  EXPECT_EQ(s.description, "A holder paused past its TTL");
  EXPECT_EQ(s.backend, "redis");
  EXPECT_EQ(s.config.variant, "fenced");
  EXPECT_EQ(s.config.duration_us, 20000000);
  EXPECT_EQ(s.config.command_timeout_us, 400000);
  EXPECT_EQ(s.config.active_expiry_interval_us, 50000);
  EXPECT_EQ(s.config.max_events, 123456u);
  ASSERT_EQ(s.seeds.size(), 10u);
  EXPECT_EQ(s.seeds.front(), 1u);
  EXPECT_EQ(s.seeds.back(), 10u);
}

TEST(ScenarioValid, Lock) {
  const LockOptions lock = parse_scenario(kFull, "x.toml").config.lock;
  EXPECT_EQ(lock.ttl, Millis(1000));
  EXPECT_EQ(lock.clock_drift_ppm, 20000u);
  EXPECT_EQ(lock.retry.delay_min, Micros(3000));
  EXPECT_EQ(lock.retry.delay_max, Micros(60000));
  EXPECT_EQ(lock.retry.unknown_outcome_attempts, 4u);
  EXPECT_EQ(lock.drift_floor, Millis(5));
  EXPECT_EQ(lock.retry.max_attempts, 77u);
  EXPECT_EQ(lock.retry.idempotent_attempts, 6u);
}

TEST(ScenarioValid, ClientsNodesNetwork) {
  const RunConfig c = parse_scenario(kFull, "x.toml").config;
  ASSERT_EQ(c.clients.size(), 4u);
  EXPECT_EQ(c.clients[0].clock.wall_offset_us, 0);
  EXPECT_EQ(c.clients[1].clock.wall_offset_us, 3000000);
  EXPECT_EQ(c.clients[1].clock.drift_ppm, 50000);
  EXPECT_EQ(c.clients[3].clock.wall_offset_us, -250000);
  EXPECT_EQ(c.clients[3].clock.drift_ppm, -7000);

  ASSERT_EQ(c.nodes.size(), 3u);
  EXPECT_EQ(c.nodes[0].replica_of, -1);
  EXPECT_EQ(c.nodes[0].clock.wall_offset_us, 7000);
  EXPECT_EQ(c.nodes[0].clock.drift_ppm, 11);
  EXPECT_EQ(c.nodes[1].replica_of, 0);
  EXPECT_EQ(c.nodes[1].replication_lag_min_us, 2000);
  EXPECT_EQ(c.nodes[1].replication_lag_max_us, 9000);
  EXPECT_EQ(c.nodes[1].maxmemory_keys, 100u);
  EXPECT_EQ(c.nodes[1].eviction, sim::EvictionPolicy::allkeys_lru);
  EXPECT_EQ(c.nodes[2].eviction, sim::EvictionPolicy::allkeys_random);
  EXPECT_EQ(c.nodes[2].replication_lag_min_us, NodeConfig{}.replication_lag_min_us);

  EXPECT_EQ(c.link.delay_min_us, 150);
  EXPECT_EQ(c.link.delay_max_us, 450);
  EXPECT_EQ(c.link.request_loss_ppm, 1000u);
  EXPECT_EQ(c.link.reply_loss_ppm, 2000u);
}

TEST(ScenarioValid, Workload) {
  const WorkloadConfig w = parse_scenario(kFull, "x.toml").config.workload;
  EXPECT_EQ(w.key, "orders");
  EXPECT_EQ(w.wait_us, 1500000);
  EXPECT_EQ(w.hold_min_us, 11000);
  EXPECT_EQ(w.hold_max_us, 51000);
  EXPECT_EQ(w.think_min_us, 2000);
  EXPECT_EQ(w.think_max_us, 21000);
  EXPECT_EQ(w.max_acquires_per_client, 99u);
  EXPECT_EQ(w.fencing, Fencing::writes) << "true is a synonym of \"writes\"";
}

TEST(ScenarioValid, FaultsInFileOrder) {
  const std::vector<FaultSpec> f = parse_scenario(kFull, "x.toml").config.faults;
  ASSERT_EQ(f.size(), 6u);
  EXPECT_EQ(f[0].kind, FaultKind::pause);
  EXPECT_EQ(f[0].at_us, 1000000);
  EXPECT_EQ(f[0].process, 0);
  EXPECT_EQ(f[0].duration_us, 3000000);
  EXPECT_EQ(f[1].kind, FaultKind::node_restart);
  EXPECT_EQ(f[1].node, 0);
  EXPECT_EQ(f[1].mode, RestartMode::aof_everysec);
  EXPECT_EQ(f[2].delta_us, -400000);
  EXPECT_EQ(f[3].kind, FaultKind::failover);
  EXPECT_EQ(f[3].node, 2);
  EXPECT_EQ(f[4].reply_loss_ppm, 500000u);
  EXPECT_EQ(f[4].request_loss_ppm, 0u);
  EXPECT_EQ(f[5].kind, FaultKind::heal);
  EXPECT_EQ(f[5].process, -1);
}

TEST(ScenarioValid, Nemesis) {
  const NemesisConfig n = parse_scenario(kFull, "x.toml").config.nemesis;
  EXPECT_EQ(n.pause_every_us, 5000000);
  EXPECT_EQ(n.pause_min_us, 100000);
  EXPECT_EQ(n.pause_max_us, 2000000);
  EXPECT_EQ(n.crash_every_us, 7000000);
  EXPECT_EQ(n.restart_after_us, 900000);
  EXPECT_EQ(n.partition_every_us, 8000000);
  EXPECT_EQ(n.partition_min_us, 10000);
  EXPECT_EQ(n.partition_max_us, 20000);
  EXPECT_EQ(n.node_clock_jump_every_us, 9000000);
  EXPECT_EQ(n.node_clock_jump_max_us, 30000);
  EXPECT_EQ(n.node_crash_every_us, 10000000);
  EXPECT_EQ(n.node_restart_after_us, 400000);
  EXPECT_EQ(n.restart_mode, RestartMode::kept);
}

TEST(ScenarioValid, ExpectationsInFileOrderWithLines) {
  const auto e = parse_scenario(kFull, "x.toml").expectations;
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e[0].property, "mutual_exclusion_server");
  EXPECT_EQ(e[0].expected, Expectation::Expected::holds);
  EXPECT_EQ(e[0].line, 109);
  EXPECT_EQ(e[1].property, "mutual_exclusion_client");
  EXPECT_EQ(e[1].expected, Expectation::Expected::violated);
  EXPECT_EQ(e[2].property, "bounded_unavailability");
  EXPECT_EQ(e[2].line, 111);
}

TEST(ScenarioValid, EmptyFileKeepsDefaults) {
  const Scenario s = parse_scenario("", "dir/quiet-run.toml");
  const RunConfig defaults;
  EXPECT_EQ(s.name, "quiet-run");
  EXPECT_EQ(s.config.scenario, "quiet-run");
  EXPECT_EQ(s.backend, "mock");
  EXPECT_EQ(s.config.variant, defaults.variant);
  EXPECT_EQ(s.config.duration_us, defaults.duration_us);
  EXPECT_EQ(s.config.clients.size(), defaults.clients.size());
  EXPECT_EQ(s.config.nodes.size(), 1u);
  EXPECT_EQ(s.config.lock.ttl, defaults.lock.ttl);
  EXPECT_EQ(s.seeds.size(), 20u);  // seeds 1..20 when a file names none
  EXPECT_TRUE(s.expectations.empty());
  EXPECT_TRUE(s.config.faults.empty());
  EXPECT_TRUE(s.scripts.acquire.empty());
}

TEST(ScenarioValid, LfuEvictionPolicies) {
  const Scenario s = parse_scenario("[[nodes]]\neviction = \"allkeys-lfu\"\n[[nodes]]\neviction = \"volatile-lfu\"\n",
                                    "dir/lfu.toml");
  ASSERT_EQ(s.config.nodes.size(), 2u);
  EXPECT_EQ(s.config.nodes[0].eviction, sim::EvictionPolicy::allkeys_lfu);
  EXPECT_EQ(s.config.nodes[1].eviction, sim::EvictionPolicy::volatile_lfu);
}

}  // namespace
}  // namespace lockcheck::sim
