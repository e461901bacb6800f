// The library's locks on a simulated Sentinel deployment: clients find the master through the sentinels,
// a crashed master is failed over after down-after, and the split-brain of an old master cut off with one
// client: it keeps that client's writes (unless min-replicas-to-write refuses them), and loses them when
// it rejoins as a replica.
#include <gtest/gtest.h>

#include <string>

#include "core/simulate.hpp"
#include "count_lines.hpp"

namespace lockcheck::sim {
namespace {

RunConfig sentinel_config(int replicas) {
  RunConfig config;
  config.scenario = "sentinel-test";
  config.lock.ttl = Millis(500);
  config.duration_us = 3000000;
  config.sentinel.sentinels = 3;
  config.sentinel.quorum = 2;
  config.sentinel.replicas = replicas;
  config.sentinel.down_after_us = 1000000;
  config.nodes = sentinel_nodes(config.sentinel);
  return config;
}

// Server events of `event` on `node` at true times in [from_us, to_us).
std::size_t events_between(const RunResult& run, int node, const std::string& event, std::int64_t from_us, std::int64_t to_us) {
  const std::string marker = R"("kind":"server","node":)" + std::to_string(node) + R"(,"event":")" + event + "\"";
  return count_lines_between(run, marker, from_us, to_us);
}

TEST(SentinelSim, ClientsFindTheMasterThroughTheSentinels) {
  const RunResult run = simulate(sentinel_config(2), 1);
  EXPECT_GT(count_lines(run, R"("type":"ok","process":0,"f":"acquire")"), 5u);
  EXPECT_GT(count_lines(run, R"("kind":"server","node":0,"event":"created")"), 10u);
  EXPECT_EQ(count_lines(run, R"("kind":"server","node":1,"event":"created")"), 0u);
  EXPECT_EQ(count_lines(run, R"("sentinel":{"sentinels":3,"quorum":2,"master":0)"), 1u);
}

TEST(SentinelSim, CrashedMasterIsFailedOverAfterDownAfter) {
  RunConfig config = sentinel_config(2);
  config.faults.push_back(FaultSpec{.at_us = 1000000, .kind = FaultKind::node_crash, .node = 0});
  const RunResult run = simulate(config, 2);
  EXPECT_EQ(count_lines(run, R"("fault":"failover")"), 1u);
  const std::size_t on_replicas = events_between(run, 1, "created", 2000000, 3000000) +
                                  events_between(run, 2, "created", 2000000, 3000000);
  EXPECT_GT(on_replicas, 3u) << "acquires go on at the promoted replica";
  EXPECT_EQ(events_between(run, 1, "created", 1000000, 2000000) + events_between(run, 2, "created", 1000000, 2000000), 0u)
      << "no failover before down-after";
}

TEST(SentinelSim, RestartedOldMasterRejoinsAsReplica) {
  RunConfig config = sentinel_config(1);
  config.faults.push_back(FaultSpec{.at_us = 500000, .kind = FaultKind::node_crash, .node = 0});
  config.faults.push_back(FaultSpec{.at_us = 2000000, .kind = FaultKind::node_restart, .node = 0});
  const RunResult run = simulate(config, 3);
  EXPECT_EQ(count_lines(run, R"("fault":"failover","node":1,"from":0,"by":"sentinels")"), 1u);
  EXPECT_EQ(count_lines(run, R"("fault":"rejoin","node":0,"master":1)"), 1u);
  EXPECT_EQ(events_between(run, 0, "created", 2000000, 3000000), 0u) << "a replica takes no writes";
}

RunConfig split_brain_config(int min_replicas_to_write) {
  RunConfig config = sentinel_config(2);
  config.duration_us = 5000000;
  config.sentinel.min_replicas_to_write = min_replicas_to_write;
  config.sentinel.min_replicas_max_lag_us = 500000;
  config.workload.hold_min_us = 50000;
  config.workload.hold_max_us = 150000;
  config.faults.push_back(FaultSpec{.at_us = 1000000, .kind = FaultKind::split_brain, .process = 0, .node = 0});
  config.faults.push_back(FaultSpec{.at_us = 4000000, .kind = FaultKind::heal});
  return config;
}

TEST(SentinelSim, SplitBrainOldMasterKeepsItsSideUntilItRejoinsAndLosesThat) {
  const RunResult run = simulate(split_brain_config(0), 4);
  EXPECT_EQ(count_lines(run, R"("fault":"split_brain","node":0,"process":0)"), 1u);
  EXPECT_EQ(count_lines(run, R"("fault":"failover")"), 1u);
  EXPECT_GT(events_between(run, 0, "created", 2100000, 4000000), 0u) << "the old master still grants process 0";
  EXPECT_GT(events_between(run, 1, "created", 2100000, 4000000) + events_between(run, 2, "created", 2100000, 4000000), 0u)
      << "the majority side grants the others";
  EXPECT_EQ(count_lines(run, R"("fault":"rejoin","node":0)"), 1u);
  EXPECT_EQ(events_between(run, 0, "created", 4000001, 5000000), 0u);
}

TEST(SentinelSim, MinReplicasToWriteClosesTheOldMasterAfterTheMaxLag) {
  const RunResult run = simulate(split_brain_config(1), 4);
  // NOREPLICAS runs nothing, so the client's lock retries after its backoff (SentinelPort answers not_sent)
  // instead of stopping on the error: its release, refused by the old master, ends after the heal, and it
  // goes on acquiring.
  EXPECT_EQ(count_lines(run, R"("type":"ok","process":0,"f":"release")"), count_lines(run, R"("type":"invoke","process":0,"f":"release")"));
  EXPECT_GT(count_lines_between(run, R"("type":"invoke","process":0,"f":"acquire")", 4000000), 0u)
      << "process 0 did not stop on NOREPLICAS";
  EXPECT_EQ(events_between(run, 0, "created", 1600000, 4000000), 0u) << "no grant once the replicas lag past 0.5 s";
}

TEST(SentinelSim, SplitBrainWithTooFewSentinelsOnTheMajoritySideFailsNothingOver) {
  RunConfig config = split_brain_config(0);
  config.sentinel.sentinels_on_master_side = 2;  // one sentinel left to vote: below quorum 2 and majority 2
  const RunResult run = simulate(config, 4);
  EXPECT_EQ(count_lines(run, R"("fault":"failover")"), 0u);
  EXPECT_EQ(count_lines(run, R"("fault":"rejoin")"), 0u);
  EXPECT_GT(events_between(run, 0, "created", 2100000, 4000000), 0u) << "process 0 goes on with the master";
  EXPECT_EQ(events_between(run, 1, "created", 0, 5000000) + events_between(run, 2, "created", 0, 5000000), 0u);
}

TEST(SentinelSim, SplitBrainWithAMajorityOfSentinelsLeftFailsOver) {
  RunConfig config = split_brain_config(0);
  config.sentinel.sentinels_on_master_side = 1;  // two vote: quorum 2 and a majority of 3
  const RunResult run = simulate(config, 4);
  EXPECT_EQ(count_lines(run, R"("fault":"failover")"), 1u);
  EXPECT_GT(events_between(run, 0, "created", 2100000, 4000000), 0u) << "the stranded sentinel still names node 0";
}

TEST(SentinelSim, SameSeedSameHistory) {
  const RunConfig config = split_brain_config(0);
  EXPECT_EQ(simulate(config, 9).history.jsonl(), simulate(config, 9).history.jsonl());
}

}  // namespace
}  // namespace lockcheck::sim
