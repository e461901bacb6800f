// redisson-like's pub/sub wake-up on a simulated cluster: its waiters SSUBSCRIBE (through ClusterPort) to a
// shard channel in the lock key's slot, at the shard master serving it, and its release script SPUBLISHes
// there, so a waiter wakes about one trip after a release instead of sleeping out its retry pause.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/simulate.hpp"
#include "core/world.hpp"
#include "lockcheck/key_slot.hpp"
#include "redis/server/node.hpp"

namespace lockcheck::sim {
namespace {

RunConfig redisson_on_a_cluster() {
  RunConfig config;
  config.scenario = "cluster-pubsub-test";
  config.variant = "redisson-like";
  config.lock.ttl = Millis(1000);
  config.duration_us = 4'000'000;
  config.clients = std::vector<ClientConfig>(3);
  config.cluster.shards = 3;
  config.nodes = cluster_nodes(config.cluster);
  config.workload.hold_min_us = 100'000;
  config.workload.hold_max_us = 300'000;
  config.workload.wait_us = 20'000'000;
  return config;
}

// Waits from a release (its server `deleted`) to the next acquire ok of a process that was already waiting.
std::vector<std::int64_t> handoff_waits_us(const RunResult& run) {
  std::vector<std::int64_t> waits;
  std::int64_t released_at = -1;
  std::map<std::int64_t, std::int64_t> waiting_since;  // process -> its acquire invoke
  for (const std::string& text : run.history.lines()) {
    const nlohmann::json line = nlohmann::json::parse(text);
    if (line["kind"] == "server" && line["event"] == "deleted" && line["key"] == "lock") released_at = line["t"];
    if (line["kind"] != "op" || line["f"] != "acquire" || line.contains("nested")) continue;
    const std::int64_t process = line["process"];
    if (line["type"] == "invoke") waiting_since[process] = line["t"];
    if (line["type"] != "ok" || released_at < 0 || waiting_since[process] >= released_at) continue;
    waits.push_back(line["t"].get<std::int64_t>() - released_at);
    released_at = -1;
  }
  return waits;
}

TEST(ClusterPubSub, WaitersListenOnTheShardChannelOfTheLockKeysSlot) {
  // "lock" (slot 8718) is served by node 1; its shard channel shares the slot through the hash tag.
  ASSERT_EQ(key_hash_slot("lockcheck:released:{lock}"), key_hash_slot("lock"));
  World world(redisson_on_a_cluster(), 1);
  world.run();
  mock::Session session{.client_id = 99};
  const Reply subscribers =
      world.node(1).mock().execute({"PUBSUB", "SHARDNUMSUB", "lockcheck:released:{lock}"}, session);
  ASSERT_EQ(subscribers.elements.size(), 2u) << to_string(subscribers);
  EXPECT_GE(subscribers.elements[1].integer, 1) << "the waiters' SSUBSCRIBE reached the lock's shard master";
  for (const int other : {0, 2}) {
    const Reply none = world.node(other).mock().execute({"PUBSUB", "SHARDCHANNELS"}, session);
    EXPECT_TRUE(none.elements.empty()) << "node " << other << ": " << to_string(none);
  }
}

TEST(ClusterPubSub, WaitersWakeOneTripAfterARelease) {
  const RunResult run = simulate(redisson_on_a_cluster(), 2);
  std::vector<std::int64_t> waits = handoff_waits_us(run);
  ASSERT_GE(waits.size(), 5u);
  std::sort(waits.begin(), waits.end());
  // A message takes one link delay (at most 400 us), the acquire one round trip: far below a retry pause.
  EXPECT_LT(waits[waits.size() / 2], 2'000) << "median hand-off in us";
}

}  // namespace
}  // namespace lockcheck::sim
