#pragma once
// What `lockcheck compare` and `lockcheck merge` write — a comparison's files (matrix.md, report.html,
// results.json, JUnit XML) or one shard's file — and `lockcheck merge` itself, which reads the shard files of
// `lockcheck compare --shard i/n` runs and writes the files of the whole comparison, byte for byte those of
// one unsharded run. Merging runs nothing: a shard file holds its counterexamples' timelines.
#include <filesystem>
#include <string>
#include <vector>

#include "reports/comparison.hpp"
#include "reports/comparison_shard.hpp"

namespace lockcheck::cli {

// matrix.md, report.html and results.json into out_dir (without out_dir: matrix.md on standard output);
// JUnit XML to junit_path when set. Prints what it wrote.
void write_comparison_files(const reports::Comparison& comparison, const std::string& out_dir,
                            const std::string& junit_path);

// Writes out_dir/compare-shard-<i>-of-<n>.json; returns its path.
std::string write_shard_file(const reports::ComparisonShard& shard, const std::string& out_dir);

// A merge's input file as text; std::invalid_argument ("merge: cannot read ...") when it cannot be read.
std::string read_merge_input(const std::filesystem::path& path);
// Whether a file is named as `compare --shard` names its shard files (compare-shard-*.json).
bool is_shard_file(const std::filesystem::path& path);

struct MergeOptions {
  std::vector<std::string> inputs;  // shard files, or directories holding compare-shard-*.json files
  std::string out_dir;              // empty: print matrix.md to standard output
  std::string junit_path;           // empty: no JUnit XML
};

// Explore outputs (explore.json, or folders holding them) are merged by command_merge_explore
// (merge_explore_command.hpp) instead. Compare shards: 0, or 3 when some shard's run exited 3 (nondeterminism, a cell that could not run; its notes say which);
// the files are written either way. Throws std::invalid_argument when the inputs are not exactly the shards
// 0..n-1 of one comparison.
int command_merge(const MergeOptions& options);

}  // namespace lockcheck::cli
