// explore --shard i/n: the shards together run the whole run budget, each from a seed of its own, and shard 0/1
// is the unsharded search itself.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

#include "shard.hpp"

namespace lockcheck::explore {
namespace {

TEST(ExploreShard, TheSharesAddUpToTheWholeRunBudget) {
  for (const std::uint64_t runs : {4u, 7u, 300u, 1001u}) {
    for (const std::uint64_t count : {1u, 2u, 3u, 4u}) {
      std::uint64_t total = 0;
      for (std::uint64_t index = 0; index < count; ++index) {
        const std::uint64_t share = shard_runs(runs, ShardSpec{index, count});
        EXPECT_GE(share, runs / count);
        EXPECT_LE(share, runs / count + 1);
        total += share;
      }
      EXPECT_EQ(total, runs) << runs << " runs in " << count << " shards";
    }
  }
}

TEST(ExploreShard, NoRunBudgetStaysNone) { EXPECT_EQ(shard_runs(0, ShardSpec{2, 4}), 0u); }

TEST(ExploreShard, AShardWithNoRunIsRefused) {
  // 0 runs would mean "no limit" to the explorer: fewer runs than shards is a usage error.
  EXPECT_THROW(shard_runs(3, ShardSpec{3, 4}), std::invalid_argument);
}

TEST(ExploreShard, EachShardSearchesFromItsOwnSeedAndOneShardIsTheSearch) {
  EXPECT_EQ(shard_seed(5, ShardSpec{0, 1}), 5u);
  std::set<std::uint64_t> seeds;
  for (std::uint64_t index = 0; index < 4; ++index) seeds.insert(shard_seed(5, ShardSpec{index, 4}));
  EXPECT_EQ(seeds.size(), 4u);
  EXPECT_NE(shard_seed(5, ShardSpec{1, 4}), shard_seed(5, ShardSpec{1, 8}));
  EXPECT_EQ(shard_seed(5, ShardSpec{1, 4}), shard_seed(5, ShardSpec{1, 4}));
  EXPECT_EQ(shard_folder_name(ShardSpec{1, 4}, "token", 5), "explore-token-seed-5-shard-1-of-4");
  EXPECT_EQ(shard_folder_name(ShardSpec{0, 2}, "my lock/v2", 1), "explore-my_lock_v2-seed-1-shard-0-of-2");
}

}  // namespace
}  // namespace lockcheck::explore
