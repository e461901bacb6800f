// A history is judged whole only when its closing line says the run reached its end; a scenario can claim
// that nothing is ever acquired (and why), and that claim can fail; server lines name the user's script file.
#include <gtest/gtest.h>

#include "history_builder.hpp"
#include "properties/history_closed.hpp"
#include "properties/starved.hpp"

namespace lockcheck::properties {
namespace {

using testing::HistoryBuilder;

const std::string kCrossSlot = "acquire of lock 'lock' failed: CROSSSLOT Keys in request don't hash to the same slot";

using testing::contains;

TEST(HistoryClosed, TheEndLineClosesTheHistoryAndIsNoEvent) {
  HistoryBuilder b(1000, false, 2'000'000);
  b.invoke(100, 1, "acquire");
  const std::string open = b.text();
  const std::string closed = open + R"({"i":2,"t":2000000,"kind":"end"})" + "\n";
  const History whole = parse_history(closed);
  EXPECT_TRUE(whole.closed);
  EXPECT_EQ(whole.events.size(), 2u);
  EXPECT_EQ(history_cut_short(whole), "");
  const History cut = parse_history(open);
  EXPECT_FALSE(cut.closed);
  EXPECT_EQ(history_cut_short(cut),
            "the history is cut short: its last line (i=1) is at t=0.000 s, the run ends at t=2.000 s (meta \"end\"), "
            "and the closing {\"kind\":\"end\"} line is missing (a run stopped by the event limit, or a file cut off); "
            "verdicts on part of a run are not a pass");
  EXPECT_THROW(parse_history(closed + R"({"i":3,"t":2000000,"kind":"fault","fault":"heal"})" + "\n"), ParseError);
}

TEST(HistoryScriptFiles, ServerLinesNameTheUsersFile) {
  const std::string sha = "2c99631b1702d4707f6939e6ab12f0be8c47070b";
  const std::string server = R"(,"kind":"server","node":0,"event":"deleted","key":"lock","value":"","by":1,)"
                             R"("command":"DEL","script":")";
  const History history = parse_history(
      R"({"i":0,"t":0,"kind":"meta","schema":1,"variant":"script","ttl_ms":1000,"script_files":{")" + sha +
      R"(":"lua/release.lua"}})" "\n" R"({"i":1,"t":10)" + server + sha + R"(","node_time_ms":0,"expire_at_ms":-1})" "\n"
      R"({"i":2,"t":20)" + server + R"(0123456789012345678901234567890123456789","node_time_ms":0,"expire_at_ms":-1})" "\n");
  EXPECT_EQ(std::get<ServerEvent>(history.events[1]).script, "lua/release.lua");
  EXPECT_EQ(std::get<ServerEvent>(history.events[2]).script, "0123456789012345678901234567890123456789")
      << "a SHA1 the meta does not name stays as it is";
}

HistoryBuilder refused_everywhere() {
  HistoryBuilder b;
  for (std::int64_t p = 0; p < 3; ++p) {
    b.invoke(1'000 * (p + 1), p, "acquire");
    b.op(1'000 * (p + 1) + 100,
         {{"type", "fail"}, {"process", p}, {"f", "acquire"}, {"key", "lock"}, {"detail", kCrossSlot}, {"error", true}});
  }
  return b;
}

TEST(Starved, HoldsWhenEveryAcquireIsRefusedForTheStatedReason) {
  const Verdict verdict = check_starved(refused_everywhere().parse(), "CROSSSLOT");
  EXPECT_EQ(verdict.outcome, Outcome::holds) << to_string(verdict);
  EXPECT_EQ(verdict.property, "progress");
  EXPECT_EQ(verdict.witnesses, (std::vector<std::int64_t>{2}));
  EXPECT_TRUE(contains(verdict.summary, "starved: no acquisition in 3 attempt(s)")) << verdict.summary;
  EXPECT_EQ(check_starved(refused_everywhere().parse(), "").outcome, Outcome::holds);
}

TEST(Starved, AnotherReasonViolatesIt) {
  const Verdict verdict = check_starved(refused_everywhere().parse(), "CLUSTERDOWN");
  EXPECT_EQ(verdict.outcome, Outcome::violated) << to_string(verdict);
  EXPECT_TRUE(contains(verdict.summary, "starved, but not because of 'CLUSTERDOWN'")) << verdict.summary;
  EXPECT_TRUE(contains(verdict.cause, "CROSSSLOT")) << verdict.cause;
}

TEST(Starved, AnAcquisitionViolatesIt) {
  HistoryBuilder b = refused_everywhere();
  b.invoke(50'000, 1, "acquire");
  const std::int64_t ok = b.acquire_ok(51'000, 1, "tokA", 900'000);
  const Verdict verdict = check_starved(b.parse(), "CROSSSLOT");
  EXPECT_EQ(verdict.outcome, Outcome::violated) << to_string(verdict);
  EXPECT_EQ(verdict.witnesses, (std::vector<std::int64_t>{ok}));
}

TEST(Starved, NoAttemptCannotBeJudged) {
  EXPECT_EQ(check_starved(HistoryBuilder().parse(), "CROSSSLOT").outcome, Outcome::unknown);
}

}  // namespace
}  // namespace lockcheck::properties
