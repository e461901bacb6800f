// The reference's simulations are remembered by everything that makes a run: the same configuration and seed
// give the history already made; a change the scenario file writes, a script's text (which the file names only
// by path) or the seed gives a run of its own.
#include <gtest/gtest.h>

#include "core/simulate.hpp"
#include "model/variant_config.hpp"
#include "remembered_runs.hpp"

namespace lockcheck::explore {
namespace {

sim::RunConfig short_token_run() {
  sim::RunConfig config = sim::variant_base_config("token");
  config.duration_us = 2'000'000;
  return config;
}

TEST(RememberedRuns, TheSameRunIsSimulatedOnceAndEqualsAFreshOne) {
  const sim::RunConfig config = short_token_run();
  const auto first = simulated_history(config, 7);
  const auto again = simulated_history(config, 7);
  EXPECT_EQ(first.get(), again.get()) << "the same configuration and seed: remembered";
  const properties::History fresh = properties::parse_history(sim::simulate(config, 7).history);
  ASSERT_EQ(first->events.size(), fresh.events.size());
  EXPECT_EQ(first->closed_at_us, fresh.closed_at_us);
}

TEST(RememberedRuns, AnotherSeedSettingOrScriptTextIsARunOfItsOwn) {
  const sim::RunConfig config = short_token_run();
  const auto base = simulated_history(config, 11);
  EXPECT_NE(base.get(), simulated_history(config, 12).get()) << "another seed";
  sim::RunConfig longer_ttl = config;
  longer_ttl.lock.ttl = config.lock.ttl * 2;
  EXPECT_NE(base.get(), simulated_history(longer_ttl, 11).get()) << "a setting the scenario file writes";

  sim::RunConfig scripts = sim::variant_base_config("script");
  scripts.duration_us = 2'000'000;
  scripts.scripts.acquire = "return redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])";
  scripts.scripts.release = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";
  const auto with_nx = simulated_history(scripts, 3);
  sim::RunConfig without_nx = scripts;  // the same file names, another text: the file alone would not tell them apart
  without_nx.scripts.acquire = "return redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])";
  EXPECT_NE(with_nx.get(), simulated_history(without_nx, 3).get());
}

}  // namespace
}  // namespace lockcheck::explore
