// explore.json round-trips, and `lockcheck merge` of explore outputs: sums, finds deduplicated by lock, property
// and tier keeping the smallest that still reproduces, the same search refused twice, a missing shard said.
#include <gtest/gtest.h>

#include <stdexcept>

#include "explore_json.hpp"
#include "merge_explore.hpp"

namespace lockcheck::explore {
namespace {

FindRecord find_of(const std::string& property, bool own_bug, std::size_t faults, std::int64_t duration_us,
                   const std::string& file) {
  FindRecord find;
  find.property = property;
  find.own_bug = own_bug;
  find.schedule = std::vector<std::string>(faults, "t=0ms pause process=0 duration_ms=100");
  find.fault_kinds = {"pause"};
  find.duration_us = duration_us;
  find.file = file;
  find.reproduced = true;
  if (!own_bug) find.theory = TheoryCase{"F4", "a pause", "pause"};
  return find;
}

ExploreInput shard_input(std::uint64_t index, std::uint64_t count, std::vector<FindRecord> finds, std::vector<FindRecord> limits) {
  SearchSettings search;
  search.locks = {"token"};
  search.seed = 5;
  search.shard_index = index;
  search.shard_count = count;
  search.budget_runs = 10;
  search.strategy = "guided";
  LockRecord lock;
  lock.lock = "token";
  lock.runs = 10;
  lock.events = 100;
  lock.kept = 2;
  lock.exercise.acquires = 7;
  lock.marks = {MarkRecord{"pause_during_hold", static_cast<std::int64_t>(index), ""},
                MarkRecord{"lock_key_evicted", 0, "no node has an eviction policy"}};
  lock.pairs = {{"pause_during_hold", "lock_key_evicted"}};
  lock.held = {{"owner_only_release", 9}};
  lock.finds = std::move(finds);
  lock.limits = std::move(limits);
  return ExploreInput{ExploreDocument{{search}, {lock}}, "shard" + std::to_string(index) + "/explore.json",
                      "shard" + std::to_string(index)};
}

Replayed reproduces(const FindRecord& find, const ExploreInput& input) {
  return Replayed{true, input.directory + "/" + find.file, ""};
}

TEST(ExploreJson, AResultReadsBackAsItWasWritten) {
  ExploreInput input = shard_input(1, 2, {find_of("owner_only_release", true, 2, 3'000'000, "a.toml")},
                                   {find_of("mutual_exclusion_client", false, 1, 2'000'000, "b.toml")});
  input.document.locks.front().limits.front().runs = 4;
  input.document.locks.front().finds.front().story = {"SET by process 1 at t=0.1s: the key held nothing before"};
  input.document.searches.front().without = {"failover"};
  input.document.searches.front().budget_seconds = 1.5;
  const std::string text = explore_json(input.document);
  EXPECT_TRUE(is_explore_json(text));
  EXPECT_EQ(explore_json(parse_explore_json(text, "x")), text);
}

TEST(ExploreJson, ACompareShardIsNoExploreResult) {
  EXPECT_FALSE(is_explore_json(R"({"format": "lockcheck-compare-shard", "version": 2})"));
  EXPECT_FALSE(is_explore_json("not json"));
  EXPECT_THROW(parse_explore_json(R"({"format": "lockcheck-compare-shard"})", "x"), std::invalid_argument);
}

TEST(ExploreMerge, SumsTheSearchesAndKeepsTheSmallestFindPerLockPropertyAndTier) {
  const std::vector<ExploreInput> inputs = {
      shard_input(0, 2, {find_of("owner_only_release", true, 3, 1'000'000, "big.toml")},
                  {find_of("mutual_exclusion_client", false, 2, 1'000'000, "limit0.toml")}),
      shard_input(1, 2,
                  {find_of("owner_only_release", true, 2, 5'000'000, "longer.toml"),
                   find_of("owner_only_release", true, 2, 4'000'000, "small.toml")},
                  {find_of("mutual_exclusion_client", false, 1, 1'000'000, "limit1.toml")})};
  const MergedExplore merged = merge_explore(inputs, reproduces);
  EXPECT_TRUE(merged.warnings.empty());
  ASSERT_EQ(merged.document.searches.size(), 2u);
  ASSERT_EQ(merged.document.locks.size(), 1u);
  const LockRecord& lock = merged.document.locks.front();
  EXPECT_EQ(lock.runs, 20u);
  EXPECT_EQ(lock.events, 200u);
  EXPECT_EQ(lock.kept, 4u);
  EXPECT_EQ(lock.exercise.acquires, 14);
  EXPECT_EQ(lock.held.at("owner_only_release"), 18);
  EXPECT_EQ(lock.marks.at(0).runs, 1);
  EXPECT_EQ(lock.marks.at(1).not_applicable, "no node has an eviction policy");
  EXPECT_EQ(lock.pairs.size(), 1u);
  ASSERT_EQ(lock.finds.size(), 1u);  // one per (lock, property, tier)
  EXPECT_EQ(lock.finds.front().file, "shard1/small.toml");  // fewest faults, then the shortest run
  EXPECT_EQ(lock.finds.front().search, 1u);                  // whose run it was, in the merged searches
  ASSERT_EQ(lock.limits.size(), 1u);
  EXPECT_EQ(lock.limits.front().file, "shard1/limit1.toml");
  EXPECT_EQ(lock.limits.front().runs, 2);  // each input met it once
}

TEST(ExploreMerge, AFindThatNoLongerReproducesIsSaidAndTheNextSmallestKept) {
  std::vector<ExploreInput> two = {shard_input(0, 1, {find_of("owner_only_release", true, 1, 1'000'000, "stale.toml")}, {}),
                                   shard_input(0, 1, {find_of("owner_only_release", true, 2, 1'000'000, "good.toml")}, {})};
  two[1].document.searches.front().seed = 6;  // another night
  const auto replay = [](const FindRecord& find, const ExploreInput& input) {
    return find.file == "stale.toml" ? Replayed{false, input.directory + "/" + find.file, "its run does not violate it"}
                                     : reproduces(find, input);
  };
  const MergedExplore merged = merge_explore(two, replay);
  const LockRecord& lock = merged.document.locks.front();
  ASSERT_EQ(lock.finds.size(), 1u);
  EXPECT_EQ(lock.finds.front().file, "shard0/good.toml");
  EXPECT_TRUE(lock.finds.front().reproduced);
  ASSERT_EQ(lock.replay_failures.size(), 1u);
  EXPECT_NE(lock.replay_failures.front().find("stale.toml does not reproduce"), std::string::npos) << lock.replay_failures.front();
}

TEST(ExploreMerge, TheSameSearchTwiceIsRefused) {
  const ExploreInput input = shard_input(0, 2, {}, {});
  EXPECT_THROW(merge_explore({input, input}, reproduces), std::invalid_argument);
}

TEST(ExploreMerge, AMissingShardIsSaid) {
  const MergedExplore merged = merge_explore({shard_input(0, 3, {}, {}), shard_input(2, 3, {}, {})}, reproduces);
  ASSERT_EQ(merged.warnings.size(), 1u);
  EXPECT_NE(merged.warnings.front().find("1/3"), std::string::npos) << merged.warnings.front();
}

}  // namespace
}  // namespace lockcheck::explore
