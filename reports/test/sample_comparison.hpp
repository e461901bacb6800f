#pragma once
// A hand-made comparison for the writer tests: token and fenced under "no faults" and "pause", where token
// breaks the client level under the pause (Kleppmann's case, a real history), drawn as one counterexample, and
// only 2 of fenced's 3 runs under the pause could judge the resource level; fenced's server level under no faults
// and its owner-only release under the pause carry a non-gating diagnostic.
#include <string>

#include "history_builder.hpp"
#include "properties/checkers.hpp"
#include "reports/comparison.hpp"

namespace lockcheck::reports::testing {

// p0 acquires at 100 ms (valid until 1090 ms), is paused 200..2200 ms, its key expires at 1100 ms; p1 acquires
// at 1210 ms and releases at 1500 ms; p0 wakes up and writes at 2250 ms (stale). Client-level overlap:
// 1210..1500 ms.
inline properties::History kleppmann_history() {
  properties::testing::HistoryBuilder h(1000, false, 3'000'000);
  h.invoke(100'000, 0, "acquire");
  h.set_nx_px(100'500, 0, "tokA", 1000);
  h.acquire_ok(101'000, 0, "tokA", 1'090'000);
  h.read(150'000, 0, 0);
  h.fault(200'000, {{"fault", "pause"}, {"process", 0}, {"duration_us", 2'000'000}});
  h.server(1'100'500, 0, "expired", -1, "tokA", 1100, -1, "");
  h.invoke(1'200'000, 1, "acquire");
  h.set_nx_px(1'205'000, 1, "tokB", 1000);
  h.acquire_ok(1'210'000, 1, "tokB", 2'200'000);
  h.read(1'250'000, 1, 0);
  h.write(1'400'000, 1, 0, 1, true, false);
  h.invoke(1'500'000, 1, "release", "tokB");
  h.server(1'505'000, 0, "deleted", 1, "", 1505, -1, "EVALSHA");
  h.complete(1'510'000, 1, "release", "ok", "released", "tokB");
  h.fault(2'200'000, {{"fault", "resume"}, {"process", 0}});
  h.write(2'250'000, 0, 0, 2, true, true);
  h.invoke(2'300'000, 0, "release", "tokA");
  h.complete(2'310'000, 0, "release", "ok", "not_owned", "tokA");
  return h.parse();
}

inline std::vector<properties::Verdict> violated_verdicts(const properties::History& history) {
  std::vector<properties::Verdict> violated;
  for (auto& verdict : properties::check_all(history)) {
    if (verdict.outcome == properties::Outcome::violated) violated.push_back(verdict);
  }
  return violated;
}

Comparison sample_comparison(const std::string& hostile_text = "");

}  // namespace lockcheck::reports::testing
