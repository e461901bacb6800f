#pragma once
// `lockcheck merge` of explore outputs (shards of one search, nights of a nightly job): one result as if one
// search had made every run. Runs, events, marks' runs, held counts and kept runs are summed, mark pairs united;
// finds are united and deduplicated by lock, property and tier (own bug or known limit), keeping the smallest
// (fewest faults, then the shortest run), which is replayed once more from its scenario file before it is kept:
// a find that no longer reproduces is said so (the lock's replay_failures), and the next smallest tried.
#include <functional>
#include <string>
#include <vector>

#include "explore_json.hpp"

namespace lockcheck::explore {

struct ExploreInput {
  ExploreDocument document;
  std::string source;     // the explore.json, as given: for messages
  std::string directory;  // its folder: where its finds' files are
};

// The outcome of replaying one find from its input's file.
struct Replayed {
  bool reproduced = false;
  std::string file;     // where the kept find's file is now (the merged explore.json names it so)
  std::string problem;  // why it does not reproduce
};
using ReplayFind = std::function<Replayed(const FindRecord& find, const ExploreInput& input)>;

struct MergedExplore {
  ExploreDocument document;
  std::vector<std::string> warnings;  // e.g. a shard of a split missing: said, not refused (less search, not a wrong one)
};

// Throws std::invalid_argument when the same search is given twice (its runs would count twice), naming both.
MergedExplore merge_explore(const std::vector<ExploreInput>& inputs, const ReplayFind& replay);

}  // namespace lockcheck::explore
