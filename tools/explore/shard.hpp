#pragma once
// One shard of a search (`lockcheck explore --shard i/n`): a deterministic part of it that any machine runs
// alike. Each shard searches from its own seed, derived from the search's seed and its index (so shards never
// repeat one another's runs), with its share of the run budget (the n shards together run what one unsharded
// search would). Shard 0/1 is the search itself: its seed and budget unchanged.
#include <cstdint>
#include <string>

namespace lockcheck::explore {

struct ShardSpec {
  std::uint64_t index = 0;
  std::uint64_t count = 1;
  bool sharded() const { return count > 1; }
};

// The seed shard `shard` of the search seeded `seed` searches from.
std::uint64_t shard_seed(std::uint64_t seed, ShardSpec shard);

// Shard `shard`'s part of a budget of `runs` runs: runs / n, and one more for the first runs % n shards.
// 0 stays 0 (no run budget: a time budget ends each shard). Throws std::invalid_argument when a shard would
// get no run at all (fewer runs than shards): 0 would mean "no limit".
std::uint64_t shard_runs(std::uint64_t runs, ShardSpec shard);

// "explore-token-seed-5-shard-1-of-4": the folder a shard writes its explore.json and finds into, under --out,
// so that shards share an --out (a CI artifact folder, a Kubernetes volume) without clobbering one another: the
// shards of one search, and those of searches of other locks or seeds. `locks`: what was explored ("token",
// "all"), any character a file name may not carry replaced by '_'.
std::string shard_folder_name(ShardSpec shard, const std::string& locks, std::uint64_t seed);

// `name` with any character but letters, digits and "-_+." replaced by '_' (a lock's name in a file name).
std::string file_safe(const std::string& name);

}  // namespace lockcheck::explore
