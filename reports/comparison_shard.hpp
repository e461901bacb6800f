#pragma once
// A comparison split into shards (`lockcheck compare --shard i/n`) and put back together (`lockcheck merge`).
// A shard file carries everything the writers read for its cells — tallies, progress, notes, and each
// counterexample with its timeline already built — so a merge renders without running anything, and the
// merged files are byte for byte those of an unsharded run: that run assembles its Comparison through the
// same merge_shards, as the one shard 0/1.
//
// Every field of comparison.hpp that a writer reads must be in the shard file (comparison_shard.cpp); the
// unit test ComparisonShard.RoundTripGivesTheSameFiles and the CTest compare_shard_merge catch one left out.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "comparison.hpp"

namespace lockcheck::reports {

// What one planned cell came to: its tallies (empty when it did not run; a note then says why), the
// counterexamples drawn from it and its notes, in the order an unsharded run adds them.
struct CellOutcome {
  std::size_t index = 0;  // in the comparison's cell order: variant-major over `variants` x `families`
  std::optional<Cell> cell;
  std::vector<Counterexample> counterexamples;
  std::vector<std::string> notes;
};

struct ComparisonShard {
  // The comparison this is a shard of: command, backend, seeds, variants, families and the notes of the plan;
  // its cells and counterexamples stay empty (they are in `outcomes`). Equal in every shard of one comparison.
  Comparison frame;
  std::size_t index = 0;  // this shard runs the cells whose index % count == index
  std::size_t count = 1;
  int exit_code = 0;                  // the shard run's own: 0, or 3 (nondeterminism, a cell that did not run)
  std::vector<CellOutcome> outcomes;  // this shard's cells, in cell order
};

// Which shard runs the cell with this index: cell index mod shard count, so every shard gets every n-th cell
// of the variant-major order (a mix of variants and families, similar costs).
bool shard_runs_cell(std::size_t cell_index, std::size_t shard_index, std::size_t shard_count);

// "compare-shard-1-of-3.json": the file a shard writes into its --out directory (shards may share one).
std::string shard_file_name(std::size_t index, std::size_t count);
inline constexpr std::string_view kShardFilePrefix = "compare-shard-";

// The shard file: JSON, keys in a fixed order, integers only.
std::string shard_json(const ComparisonShard& shard);

// Throws std::invalid_argument naming `source` when the text is not a shard file of this format.
ComparisonShard parse_shard_json(std::string_view text, const std::string& source);

// Puts shards together. They must be the shards 0..n-1 of one comparison (same frame and n), each given once,
// and cover every cell exactly once; otherwise std::invalid_argument says what is wrong and names the files
// (`sources[i]` is where shards[i] came from).
Comparison merge_shards(const std::vector<ComparisonShard>& shards, const std::vector<std::string>& sources);

}  // namespace lockcheck::reports
