// Shard files: a comparison written as shards and merged renders the same bytes; merge refuses incomplete or
// mixed sets of shards with a message naming the files.
#include "reports/comparison_shard.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "reports/compare_junit.hpp"
#include "reports/matrix_markdown.hpp"
#include "reports/report_html.hpp"
#include "reports/results_json.hpp"
#include "sample_comparison.hpp"

namespace lockcheck::reports {
namespace {

// Splits a comparison into `count` shards as `compare --shard` would (cells by index mod count), each through
// its file's text and back.
std::vector<ComparisonShard> split(const Comparison& comparison, std::size_t count) {
  Comparison frame = comparison;
  frame.cells.clear();
  frame.counterexamples.clear();
  std::vector<ComparisonShard> shards;
  for (std::size_t index = 0; index < count; ++index) {
    ComparisonShard shard{frame, index, count, 0, {}};
    std::size_t cell_index = 0;
    for (const std::string& variant : comparison.variants) {
      for (const FamilyInfo& family : comparison.families) {
        if (shard_runs_cell(cell_index, index, count)) {
          CellOutcome outcome{cell_index, {}, {}, {}};
          if (const Cell* cell = find_cell(comparison, variant, family.id)) outcome.cell = *cell;
          for (const Counterexample& example : comparison.counterexamples) {
            if (example.variant == variant && example.family == family.id) outcome.counterexamples.push_back(example);
          }
          shard.outcomes.push_back(outcome);
        }
        ++cell_index;
      }
    }
    shards.push_back(parse_shard_json(shard_json(shard), shard_file_name(index, count)));
  }
  return shards;
}

void expect_same_files(const Comparison& a, const Comparison& b) {
  EXPECT_EQ(matrix_markdown(a), matrix_markdown(b));
  EXPECT_EQ(report_html(a), report_html(b));
  EXPECT_EQ(results_json(a), results_json(b));
  EXPECT_EQ(compare_junit_xml(a), compare_junit_xml(b));
}

TEST(ComparisonShard, RoundTripGivesTheSameFiles) {
  const Comparison comparison = testing::sample_comparison("<&\"'|\n>");
  ASSERT_FALSE(comparison.counterexamples.empty());
  for (const std::size_t count : {1u, 2u, 3u, 5u}) {
    SCOPED_TRACE(count);
    const std::vector<ComparisonShard> shards = split(comparison, count);
    expect_same_files(comparison, merge_shards(shards, {}));
  }
}

TEST(ComparisonShard, TheFileIsTheSameBytesAfterARoundTrip) {
  const std::vector<ComparisonShard> shards = split(testing::sample_comparison(), 2);
  for (const ComparisonShard& shard : shards) {
    const std::string text = shard_json(shard);
    EXPECT_EQ(shard_json(parse_shard_json(text, "x")), text);
  }
}

TEST(ComparisonShard, CarriesTheDiagnostics) {
  const Comparison comparison = testing::sample_comparison("<&\"'|\n>");
  const PropertyResult& before = comparison.cells[2].properties[0];
  ASSERT_EQ(before.runs_with_diagnostics, 2);
  for (const std::size_t count : {1u, 3u}) {
    SCOPED_TRACE(count);
    const Comparison merged = merge_shards(split(comparison, count), {});
    const PropertyResult& after = merged.cells[2].properties[0];
    EXPECT_EQ(after.runs_with_diagnostics, before.runs_with_diagnostics);
    EXPECT_EQ(after.first_diagnostic_seed, before.first_diagnostic_seed);
    EXPECT_EQ(after.first_diagnostic_name, before.first_diagnostic_name);
    EXPECT_EQ(after.first_diagnostic, before.first_diagnostic);
    EXPECT_EQ(after.violated, 0);
    EXPECT_EQ(merged.cells[3].properties[3].first_diagnostic_name, "some_finding");
    EXPECT_EQ(merged.cells[0].properties[0].runs_with_diagnostics, 0);
    EXPECT_FALSE(merged.cells[0].properties[0].first_diagnostic_seed);
  }
}

TEST(ComparisonShard, OrderOfShardsDoesNotMatter) {
  const Comparison comparison = testing::sample_comparison();
  std::vector<ComparisonShard> shards = split(comparison, 3);
  std::swap(shards[0], shards[2]);
  expect_same_files(comparison, merge_shards(shards, {}));
}

std::string merge_error(const std::vector<ComparisonShard>& shards) {
  try {
    merge_shards(shards, {"a.json", "b.json", "c.json"});
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "(merged)";
}

TEST(ComparisonShard, MergeRefusesAnIncompleteOrMixedSet) {
  const std::vector<ComparisonShard> shards = split(testing::sample_comparison(), 3);
  EXPECT_NE(merge_error({shards[0], shards[2]}).find("shard 1/3 of this comparison is missing"), std::string::npos);
  EXPECT_NE(merge_error({shards[0], shards[1], shards[0]}).find("shard 0/3 is given twice: a.json and c.json"),
            std::string::npos);
  EXPECT_NE(merge_error({}).find("no shard files"), std::string::npos);

  ComparisonShard other = shards[1];
  other.frame.seeds = {1, 2};
  EXPECT_NE(merge_error({shards[0], other, shards[2]}).find("a.json and b.json are shards of different comparisons: "
                                                            "they differ in seeds"),
            std::string::npos);
  const std::vector<ComparisonShard> halves = split(testing::sample_comparison(), 2);
  EXPECT_NE(merge_error({shards[0], halves[1]}).find("a.json is shard 0/3 but b.json is shard 1/2"), std::string::npos);

  ComparisonShard stray = shards[1];
  stray.outcomes.push_back(shards[0].outcomes.front());
  EXPECT_NE(merge_error({shards[0], stray, shards[2]}).find("is not shard 1/3's to run"), std::string::npos);
  ComparisonShard short_of_one = shards[0];
  short_of_one.outcomes.pop_back();
  EXPECT_NE(merge_error({short_of_one, shards[1], shards[2]}).find("is missing from a.json (shard 0/3)"),
            std::string::npos);
}

TEST(ComparisonShard, NotAShardFile) {
  EXPECT_THROW(parse_shard_json("{\"schema\": 1}", "results.json"), std::invalid_argument);
  EXPECT_THROW(parse_shard_json("not json", "x"), std::invalid_argument);
  EXPECT_THROW(parse_shard_json("{\"format\": \"lockcheck-compare-shard\", \"version\": 1}", "x"), std::invalid_argument);
}

}  // namespace
}  // namespace lockcheck::reports
