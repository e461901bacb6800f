#include "starved.hpp"

#include <fmt/format.h>

#include <variant>

#include "checkers.hpp"

namespace lockcheck::properties {

Verdict check_starved(const History& history, std::string_view because) {
  Verdict verdict;
  verdict.property = std::string(kStarvedProperty);
  const Op* first_acquired = nullptr;
  const Op* first_error = nullptr;
  for (const Event& event : history.events) {
    const auto* op = std::get_if<Op>(&event);
    if (op == nullptr) continue;
    if (first_acquired == nullptr && op->fn == OpFn::acquire && op->type == OpType::ok) first_acquired = op;
    if (first_error == nullptr && op->error) first_error = op;
  }
  const Progress progress = measure_progress(history);
  const std::string refused =
      first_error == nullptr ? std::string("no server error")
                             : fmt::format("first server error at t={:.3f} s (process {}): {}", first_error->t / 1e6,
                                           first_error->process, first_error->detail);
  if (first_acquired != nullptr) {
    verdict.outcome = Outcome::violated;
    verdict.summary = fmt::format("expected starved, but {} acquisition(s)", progress.acquisitions);
    verdict.witnesses = {first_acquired->i};
    verdict.cause = fmt::format("process {} acquired '{}' at t={:.3f} s; {}", first_acquired->process,
                                first_acquired->key, first_acquired->t / 1e6, refused);
    return verdict;
  }
  if (progress.acquire_attempts == 0) {
    verdict.outcome = Outcome::unknown;
    verdict.summary = "not judged: no client tried to acquire";
    return verdict;
  }
  if (!because.empty() && (first_error == nullptr || first_error->detail.find(because) == std::string::npos)) {
    verdict.outcome = Outcome::violated;
    verdict.summary = fmt::format("starved, but not because of '{}'", because);
    if (first_error != nullptr) verdict.witnesses = {first_error->i};
    verdict.cause = fmt::format("no acquisition in {} attempt(s); {}", progress.acquire_attempts, refused);
    return verdict;
  }
  verdict.outcome = Outcome::holds;
  verdict.summary = fmt::format("starved: no acquisition in {} attempt(s)", progress.acquire_attempts);
  if (first_error != nullptr) verdict.witnesses = {first_error->i};
  verdict.cause = refused;
  return verdict;
}

}  // namespace lockcheck::properties
