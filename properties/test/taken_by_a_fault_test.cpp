// mutual_exclusion_server tells how the first owner's instance left the node: a fault (an early expiry on the
// node's clock, a loss at a restart) or a command of a process (a second SET that overwrote it). Only the first
// is kTakenByAFault, which explore reads as the theory's case from the run's own facts (the gate at 1000 runs,
// seed 17: token-wait's key expired early on a node clock running 25% fast, and watch-cas's was lost at a
// restart; the reference `token`, timed otherwise, never met either coincidence, so both were called the
// locks' own bugs).
#include <gtest/gtest.h>

#include "history_builder.hpp"
#include "properties/checkers.hpp"

namespace lockcheck::properties {
namespace {

using testing::HistoryBuilder;

// Process 1 holds "a" from t=0.2 ms; `then` writes how it leaves the node and who comes next. The server verdict.
template <typename Then>
Verdict after_process_1_holds(Then then) {
  HistoryBuilder h;
  h.invoke(100, 1, "acquire");
  h.set_nx_px(200, 1, "a", 1000);
  h.acquire_ok(300, 1, "a", 990'000);
  then(h);
  return check_mutual_exclusion_server(h.parse());
}

TEST(TakenByAFault, AKeyThatExpiredEarlyOnTheNodesClockThenTakenIsTheFaults) {
  const Verdict verdict = after_process_1_holds([](HistoryBuilder& h) {
    // The node's clock ran fast: the key expired 800 ms into its 1000 ms TTL, and process 2 took it.
    h.server(800'200, 0, "expired", -1, "a", 1000, 1000, "");
    h.invoke(800'300, 2, "acquire");
    h.set_nx_px(800'400, 2, "b", 1000);
  });
  ASSERT_EQ(verdict.outcome, Outcome::violated) << verdict.summary;
  EXPECT_TRUE(taken_by_a_fault(verdict)) << verdict.cause;
}

TEST(TakenByAFault, AKeyLostAtARestartThenTakenIsTheFaults) {
  const Verdict verdict = after_process_1_holds([](HistoryBuilder& h) {
    h.fault(400'000, {{"fault", "node_restart"}, {"node", 0}, {"mode", "lost"}});
    h.server(400'000, 0, "lost", -1, "a", 400, 1000, "");
    h.invoke(400'100, 2, "acquire");
    h.set_nx_px(400'200, 2, "b", 1000);
  });
  ASSERT_EQ(verdict.outcome, Outcome::violated) << verdict.summary;
  EXPECT_TRUE(taken_by_a_fault(verdict)) << verdict.cause;
}

TEST(TakenByAFault, AKeyOverwrittenByAProcessIsNotTheFaults) {
  const Verdict verdict = after_process_1_holds([](HistoryBuilder& h) {
    h.invoke(400'000, 2, "acquire");
    h.server(400'100, 0, "overwritten", 2, "b", 400, -1);
    h.server(400'100, 0, "expire_set", 2, "b", 400, 1400);
  });
  ASSERT_EQ(verdict.outcome, Outcome::violated) << verdict.summary;
  EXPECT_FALSE(taken_by_a_fault(verdict)) << verdict.cause;
}

}  // namespace
}  // namespace lockcheck::properties
