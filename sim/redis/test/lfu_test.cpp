// The per-key LFU counter (Redis 7.0.15's evict.c): a logarithmic 8-bit counter that starts at LFU_INIT_VAL 5,
// decays by one per lfu-decay-time minutes idle, grows with probability 1/((counter-5)*lfu-log-factor+1) on each
// access; OBJECT FREQ reads it without counting, RESTORE FREQ sets it, allkeys-lfu and volatile-lfu evict by it.
// Replies are redis-server 7.0.15's (non-integer values: Redis shares the objects of small integers).
#include <gtest/gtest.h>

#include "mock_test_support.hpp"

namespace lockcheck::mock::testing {
namespace {

#define EXPECT_REPLY(actual, expected) EXPECT_EQ(to_string(actual), to_string(expected)) << "reply kinds must match too"

class Lfu : public ::testing::Test, public MockFixture {
 protected:
  void SetUp() override { run({"config", "set", "maxmemory-policy", "allkeys-lfu"}); }
};

TEST_F(Lfu, NewKeysStartAtFiveAndTheFirstAccessAlwaysCounts) {
  run({"set", "a", "x"});
  EXPECT_REPLY(run({"object", "freq", "a"}), I(5));
  run({"get", "a"});
  EXPECT_REPLY(run({"object", "freq", "a"}), I(6));  // 1/((5-5)*10+1): certain
  EXPECT_REPLY(run({"object", "freq", "a"}), I(6));  // OBJECT does not count as an access
  run({"exists", "a"});
  run({"type", "a"});
  run({"ttl", "a"});
  EXPECT_REPLY(run({"object", "freq", "a"}), I(6));  // nor do EXISTS, TYPE, TTL
}

TEST_F(Lfu, LogFactorZeroCountsEveryAccessUpTo255) {
  EXPECT_REPLY(run({"config", "set", "lfu-log-factor", "0"}), S("OK"));
  run({"set", "a", "x"});
  for (int i = 0; i < 5; ++i) run({"get", "a"});
  EXPECT_REPLY(run({"object", "freq", "a"}), I(10));
  run({"set", "a", "y"});  // an overwrite counts the access and keeps the counter
  EXPECT_REPLY(run({"object", "freq", "a"}), I(11));
  run({"append", "a", "z"});
  EXPECT_REPLY(run({"object", "freq", "a"}), I(12));
  for (int i = 0; i < 300; ++i) run({"get", "a"});
  EXPECT_REPLY(run({"object", "freq", "a"}), I(255));
}

TEST_F(Lfu, HigherLogFactorsCountFewerAccesses) {
  run({"set", "a", "x"});
  for (int i = 0; i < 1000; ++i) run({"get", "a"});
  const std::int64_t counter = run({"object", "freq", "a"}).integer;
  // Redis's own table (redis.conf): factor 10 reaches about 18 after 1000 hits.
  EXPECT_GE(counter, 12);
  EXPECT_LE(counter, 25);
}

TEST_F(Lfu, CounterDecaysPerIdlePeriod) {
  run({"config", "set", "lfu-log-factor", "0"});
  run({"set", "a", "x"});
  for (int i = 0; i < 5; ++i) run({"get", "a"});
  now_ms += 3 * 60'000;
  EXPECT_REPLY(run({"object", "freq", "a"}), I(7));  // 10 - 3 minutes
  EXPECT_REPLY(run({"config", "set", "lfu-decay-time", "0"}), S("OK"));
  now_ms += 60 * 60'000;
  EXPECT_REPLY(run({"object", "freq", "a"}), I(10));  // no decay: the stamp stays as it was
  run({"config", "set", "lfu-decay-time", "2"});
  EXPECT_REPLY(run({"object", "freq", "a"}), I(0));  // 63 minutes, 31 periods
}

TEST_F(Lfu, RestoreFreqSetsTheCounterAndRenameKeepsIt) {
  run({"set", "foo", "bar"});
  const Reply payload = run({"dump", "foo"});
  run({"del", "foo"});
  EXPECT_REPLY(node.execute({"restore", "foo", "0", payload.text, "freq", "100"}, session), S("OK"));
  EXPECT_REPLY(run({"object", "freq", "foo"}), I(100));
  EXPECT_REPLY(node.execute({"restore", "bar", "0", payload.text}, session), S("OK"));
  EXPECT_REPLY(run({"object", "freq", "bar"}), I(5));
  run({"config", "set", "lfu-log-factor", "0"});
  run({"rename", "foo", "moved"});  // RENAME reads (counts) the source and moves its counter
  EXPECT_REPLY(run({"object", "freq", "moved"}), I(101));
}

TEST_F(Lfu, ConfigParametersAndIdletimeRefused) {
  EXPECT_REPLY(run({"config", "get", "lfu-log-factor"}), A({B("lfu-log-factor"), B("10")}));
  EXPECT_REPLY(run({"config", "get", "lfu-decay-time"}), A({B("lfu-decay-time"), B("1")}));
  EXPECT_REPLY(run({"config", "set", "lfu-log-factor", "-1"}),
               E("ERR CONFIG SET failed (possibly related to argument 'lfu-log-factor') - argument must be between 0 and "
                 "2147483647 inclusive"));
  run({"set", "a", "x"});
  EXPECT_EQ(run({"object", "idletime", "a"}).kind, Reply::Kind::error);
  run({"config", "set", "maxmemory-policy", "allkeys-lru"});
  EXPECT_EQ(run({"object", "freq", "a"}).kind, Reply::Kind::error);
}

TEST_F(Lfu, AllkeysLfuEvictsTheLeastFrequentlyUsed) {
  run({"config", "set", "lfu-log-factor", "0"});
  run({"config", "set", "maxmemory-samples", "10"});  // more samples than keys: the choice is exact
  node.set_maxmemory_keys(3, EvictionPolicy::allkeys_lfu);
  run({"set", "a", "x"});
  run({"set", "b", "x"});
  run({"set", "c", "x"});
  for (int i = 0; i < 3; ++i) run({"get", "a"});
  for (int i = 0; i < 2; ++i) run({"get", "c"});
  run({"get", "b"});
  EXPECT_REPLY(run({"set", "d", "x"}), S("OK"));
  EXPECT_REPLY(run({"exists", "a", "b", "c", "d"}), I(3));
  EXPECT_REPLY(run({"exists", "b"}), I(0));
}

TEST_F(Lfu, VolatileLfuEvictsOnlyKeysWithATtl) {
  run({"config", "set", "maxmemory-policy", "volatile-lfu"});
  run({"config", "set", "lfu-log-factor", "0"});
  run({"config", "set", "maxmemory-samples", "10"});
  node.set_maxmemory_keys(3, EvictionPolicy::volatile_lfu);
  run({"set", "cold", "x"});                // no TTL: never evicted
  run({"set", "warm", "x", "ex", "100"});
  run({"set", "hot", "x", "ex", "100"});
  for (int i = 0; i < 4; ++i) run({"get", "hot"});
  EXPECT_REPLY(run({"set", "new", "x"}), S("OK"));
  EXPECT_REPLY(run({"exists", "cold", "hot", "new"}), I(3));
  EXPECT_REPLY(run({"exists", "warm"}), I(0));
}

// A simulated node given an LFU eviction policy in its options (scenario files) counts accesses without CONFIG SET.
TEST(LfuOptions, NodeOptionsPolicyKeepsCounters) {
  std::int64_t now_ms = 1'700'000'000'000;
  Node node{NodeOptions{.clock = [&] { return now_ms; }, .maxmemory_keys = 3, .eviction = EvictionPolicy::allkeys_lfu}};
  Session session{.client_id = 1};
  for (const char* key : {"a", "b", "c"}) node.execute({"set", key, "x"}, session);
  for (int i = 0; i < 50; ++i) {
    node.execute({"get", "a"}, session);
    node.execute({"get", "c"}, session);
  }
  node.execute({"set", "d", "x"}, session);
  EXPECT_EQ(to_string(node.execute({"exists", "a", "b", "c", "d"}, session)), to_string(I(3)));
  EXPECT_EQ(to_string(node.execute({"exists", "b"}, session)), to_string(I(0)));
}

TEST_F(Lfu, SameSeedSameCounters) {
  auto counters = [](std::uint64_t seed) {
    std::int64_t now_ms = 1'700'000'000'000;
    Node node{NodeOptions{.clock = [&] { return now_ms; }, .eviction_seed = seed}};
    Session session{.client_id = 1};
    node.execute({"config", "set", "maxmemory-policy", "allkeys-lfu"}, session);
    std::vector<std::int64_t> out;
    for (const char* key : {"a", "b", "c"}) {
      node.execute({"set", key, "x"}, session);
      for (int i = 0; i < 200; ++i) node.execute({"get", key}, session);
      out.push_back(node.execute({"object", "freq", key}, session).integer);
    }
    return out;
  };
  EXPECT_EQ(counters(7), counters(7));
}

}  // namespace
}  // namespace lockcheck::mock::testing
