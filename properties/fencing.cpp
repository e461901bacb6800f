// fencing: with fencing on, the fencing tokens of the writes the resource accepts strictly increase from
// one acquisition to the next (the same acquisition may write several times with its token). A duplicate
// token handed out twice after a failover (F25) or a lower token accepted shows here; a rejected stale
// token is fencing doing its job (S11).
#include <fmt/format.h>

#include <map>

#include "checkers.hpp"
#include "describe.hpp"

namespace lockcheck::properties {

Verdict check_fencing(const History& history) {
  Verdict verdict;
  verdict.property = "fencing";
  if (!history.meta.fencing) {
    verdict.outcome = Outcome::unknown;
    verdict.summary = "not exercised (fencing off)";
    return verdict;
  }
  std::map<std::int64_t, const Op*> acquisition;  // process -> its latest acquire ok
  const ResourceEvent* previous = nullptr;
  const Op* previous_acquisition = nullptr;
  std::int64_t accepted = 0;
  std::int64_t violations = 0;
  for (const Event& event : history.events) {
    if (const auto* op = std::get_if<Op>(&event)) {
      if (op->fn == OpFn::acquire && op->type == OpType::ok) acquisition[op->process] = op;
      continue;
    }
    const auto* write = std::get_if<ResourceEvent>(&event);
    if (write == nullptr || write->f != "write" || !write->accepted || !write->fencing) continue;
    ++accepted;
    auto mine = acquisition.find(write->process);
    const Op* acquired = mine == acquisition.end() ? nullptr : mine->second;
    if (previous != nullptr) {
      bool lower = *write->fencing < *previous->fencing;
      bool duplicate = *write->fencing == *previous->fencing && acquired != previous_acquisition;
      if ((lower || duplicate) && violations++ == 0) {
        verdict.witnesses = {previous->i, write->i};
        verdict.cause = fmt::format(
            "the resource accepted process {}'s write with fencing token {} at t={} after process {}'s write "
            "with token {} at t={}{}",
            write->process, *write->fencing, format_time_us(write->t), previous->process, *previous->fencing,
            format_time_us(previous->t),
            duplicate ? " from a different acquisition (the same token handed out twice)" : " (a lower token)");
      }
    }
    previous = write;
    previous_acquisition = acquired;
  }
  conclude(verdict, violations, accepted,
           fmt::format("{} accepted write(s) did not carry a strictly newer fencing token", violations),
           "not exercised (no accepted write carried a fencing token)",
           fmt::format("{} accepted write(s), fencing tokens strictly increasing per acquisition", accepted));
  return verdict;
}

}  // namespace lockcheck::properties
