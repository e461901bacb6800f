#pragma once
// `lockcheck explore`: search the fault model for a counterexample to a lock, shrink it, write it as a
// scenario file `lockcheck run` reproduces, and say which marks the search reached and which it never did.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "explore_client.hpp"
#include "explorer.hpp"
#include "shard.hpp"

namespace lockcheck::cli {

struct ExploreCommandOptions {
  std::string scenario_path;              // a starting scenario, or
  std::string variant;                    // a catalogue variant ("all": every one but script), or
  std::vector<std::string> script_paths;  // the user's acquire.lua,release.lua[,renew.lua]
  std::optional<double> budget_seconds;
  std::optional<std::uint64_t> budget_runs;
  explore::ExploreOptions search;
  std::string out_dir = "lockcheck-explore";
  bool progress = true;
  // --shard i/n: this shard's part of the search (shard.hpp); its files go to a folder of its own under out_dir
  // (explore-<lock>-seed-<seed>-shard-<i>-of-<n>/).
  explore::ShardSpec shard;
  // --corpus DIR: resume from the kept runs there (corpus.hpp), and add this search's kept runs to it.
  std::string corpus_dir;
  // --client CMD (or a scenario with [client] command): an external client on real redis-servers (explore_client.hpp).
  ExploreClientOptions client;
};

// Writes each find as a scenario file and explore.json (explore_json.hpp) into out_dir (a shard: its folder
// under out_dir). Exit code: 0 no bug of the lock's own found within the budget (known limits met are listed, and do not count),
// 1 an own bug found; throws std::invalid_argument for bad input.
int command_explore(const ExploreCommandOptions& options);

}  // namespace lockcheck::cli
