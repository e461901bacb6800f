#include "shard.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "model/prng.hpp"

namespace lockcheck::explore {

std::uint64_t shard_seed(std::uint64_t seed, ShardSpec shard) {
  if (!shard.sharded()) return seed;
  // The count is in the name too: shard 1/4 and shard 1/8 are different parts of different splits.
  return sim::derive_seed(seed, fmt::format("explore shard {}/{}", shard.index, shard.count));
}

std::uint64_t shard_runs(std::uint64_t runs, ShardSpec shard) {
  if (runs == 0 || !shard.sharded()) return runs;
  const std::uint64_t share = runs / shard.count + (shard.index < runs % shard.count ? 1 : 0);
  if (share == 0) {
    throw std::invalid_argument(fmt::format("--budget-runs {} is split among {} shards: shard {}/{} would get no run "
                                            "(give at least one run per shard)",
                                            runs, shard.count, shard.index, shard.count));
  }
  return share;
}

std::string shard_folder_name(ShardSpec shard, const std::string& locks, std::uint64_t seed) {
  return fmt::format("explore-{}-seed-{}-shard-{}-of-{}", file_safe(locks), seed, shard.index, shard.count);
}

std::string file_safe(const std::string& name) {
  std::string safe = name.empty() ? std::string("lock") : name;
  for (char& c : safe) {
    const bool kept = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
                      c == '+' || c == '.';
    if (!kept) c = '_';
  }
  return safe;
}

}  // namespace lockcheck::explore
