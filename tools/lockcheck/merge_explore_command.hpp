#pragma once
// `lockcheck merge` of explore outputs (merge_explore.hpp): the inputs read, each kept find replayed from its
// file, the merged explore.json and the kept finds' files written to --out, and the report printed as explore
// prints it. `lockcheck merge` takes compare shards too: the inputs' content tells which.
#include <string>
#include <vector>

#include "compare_output.hpp"

namespace lockcheck::cli {

// True when the inputs are explore outputs (an explore.json, or a folder holding one or shards' folders that
// do), false when none is (compare shards, left to the compare merge). Throws std::invalid_argument for a mix of
// the two, or an input that does not exist.
bool are_explore_outputs(const std::vector<std::string>& inputs);

// 1 when an own bug survives the merge (it reproduces from its file), 3 when a kept find no longer reproduces
// (the worst wins), else 0. Throws std::invalid_argument for unreadable inputs or the same search given twice.
int command_merge_explore(const MergeOptions& options);

}  // namespace lockcheck::cli
