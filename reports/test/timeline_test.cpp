#include "reports/timeline.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "sample_comparison.hpp"

namespace lockcheck::reports {
namespace {

const Lane& lane(const Timeline& timeline, const std::string& id) {
  for (const Lane& lane : timeline.lanes) {
    if (lane.id == id) return lane;
  }
  throw std::runtime_error("no lane " + id);
}

std::size_t count_kind(const Lane& lane, const std::string& kind) {
  return static_cast<std::size_t>(
      std::count_if(lane.spans.begin(), lane.spans.end(), [&](const Span& span) { return span.kind == kind; }));
}

TEST(Timeline, OneLanePerClientAndNode) {
  const properties::History history = testing::kleppmann_history();
  const Timeline timeline = build_timeline(history, testing::violated_verdicts(history));
  ASSERT_EQ(timeline.lanes.size(), 4u);
  EXPECT_EQ(timeline.lanes[0].id, "client-0");
  EXPECT_EQ(timeline.lanes[3].id, "node-0");
}

TEST(Timeline, HoldsValidityPauseAndKeyInstances) {
  const properties::History history = testing::kleppmann_history();
  const Timeline timeline = build_timeline(history, testing::violated_verdicts(history));
  const Lane& client0 = lane(timeline, "client-0");
  EXPECT_EQ(count_kind(client0, "hold"), 1u);
  EXPECT_EQ(count_kind(client0, "validity"), 1u);
  EXPECT_EQ(count_kind(client0, "pause"), 1u);
  const Lane& node0 = lane(timeline, "node-0");
  EXPECT_EQ(count_kind(node0, "instance"), 2u);
  const auto has_mark = [&](const std::string& kind) {
    return std::any_of(node0.marks.begin(), node0.marks.end(), [&](const Mark& mark) { return mark.kind == kind; });
  };
  EXPECT_TRUE(has_mark("created"));
  EXPECT_TRUE(has_mark("expired"));
  EXPECT_TRUE(has_mark("deleted"));
}

TEST(Timeline, HighlightsTheClientLevelOverlap) {
  const properties::History history = testing::kleppmann_history();
  const Timeline timeline = build_timeline(history, testing::violated_verdicts(history));
  const auto client = std::find_if(timeline.highlights.begin(), timeline.highlights.end(),
                                   [](const Highlight& h) { return h.property == "mutual_exclusion_client"; });
  ASSERT_NE(client, timeline.highlights.end());
  // p1 inside from its acquire ok to its release invoke; p0 believed it held the lock all that time.
  EXPECT_EQ(client->from_us, 1'210'000);
  EXPECT_EQ(client->to_us, 1'500'000);
}

TEST(Timeline, WitnessesAreMarkedOnTheirLanes) {
  const properties::History history = testing::kleppmann_history();
  const Timeline timeline = build_timeline(history, testing::violated_verdicts(history));
  const Lane& client1 = lane(timeline, "client-1");
  EXPECT_TRUE(std::any_of(client1.marks.begin(), client1.marks.end(), [](const Mark& mark) { return mark.witness; }));
}

TEST(Timeline, WithoutViolationsShowsTheWholeRun) {
  const properties::History history = testing::kleppmann_history();
  const Timeline timeline = build_timeline(history, {});
  EXPECT_EQ(timeline.from_us, 0);
  EXPECT_EQ(timeline.to_us, 3'000'000);
  EXPECT_TRUE(timeline.highlights.empty());
}

}  // namespace
}  // namespace lockcheck::reports
