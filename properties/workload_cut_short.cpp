#include "workload_cut_short.hpp"

#include <fmt/format.h>

#include <set>
#include <variant>

namespace lockcheck::properties {

void mark_cut_short(const History& history, std::vector<Verdict>& verdicts) {
  const Op* first_error = nullptr;
  std::set<std::int64_t> stopped_processes;
  for (const Event& event : history.events) {
    const auto* op = std::get_if<Op>(&event);
    if (op == nullptr || !op->error) continue;
    if (first_error == nullptr) first_error = op;
    stopped_processes.insert(op->process);
  }
  if (first_error == nullptr) return;
  std::int64_t acquisitions_after = 0;
  for (const Event& event : history.events) {
    const auto* op = std::get_if<Op>(&event);
    if (op != nullptr && op->fn == OpFn::acquire && op->type == OpType::ok && op->t > first_error->t) ++acquisitions_after;
  }
  const std::string why = fmt::format(
      "not judged: {} client(s) stopped on a server error, the first at t={:.3f} s (process {}: {}); {} acquisition(s) "
      "after it",
      stopped_processes.size(), static_cast<double>(first_error->t) / 1e6, first_error->process, first_error->detail,
      acquisitions_after);
  for (Verdict& verdict : verdicts) {
    if (verdict.outcome != Outcome::holds) continue;
    verdict.outcome = Outcome::unknown;
    verdict.cause = "held until the workload stopped: " + verdict.summary;
    verdict.summary = why;
    verdict.witnesses = {first_error->i};
  }
}

}  // namespace lockcheck::properties
