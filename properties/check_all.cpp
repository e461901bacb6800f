// The fixed set and order of verdicts that `lockcheck check` and scenario gates print.
#include <fmt/format.h>

#include <stdexcept>

#include "checkers.hpp"
#include "workload_cut_short.hpp"
#include "lockcheck/assert.hpp"
#include "model/properties.hpp"

namespace lockcheck::properties {

namespace {

// A count-down latch holds no lock: only the latch property judges its history.
std::vector<Verdict> latch_verdicts(const History& history) {
  std::vector<Verdict> verdicts;
  for (const sim::PropertyRow& row : sim::kProperties) {
    if (row.name == "latch") {
      verdicts.push_back(check_latch(history));
      continue;
    }
    Verdict verdict;
    verdict.property = std::string(row.name);
    verdict.summary = fmt::format("not applicable: a count-down latch of {} holds no lock (the latch property judges it)",
                                  history.meta.latch);
    verdicts.push_back(std::move(verdict));
  }
  return verdicts;
}

// Each property's checker, in kProperties' order.
using Checker = Verdict (*)(const History&);
constexpr Checker kCheckers[] = {
    check_mutual_exclusion_server, check_mutual_exclusion_client, check_mutual_exclusion_resource,
    check_owner_only_release,      check_bounded_unavailability,  check_reentrancy,
    check_renewal,                 check_fencing,                 check_permit_safety,
    check_latch,                   check_fairness,
};
static_assert(std::size(kCheckers) == std::size(sim::kProperties));

}  // namespace

std::vector<Verdict> check_all(const History& history) {
  std::vector<Verdict> verdicts;
  if (history.meta.latch > 0) {
    verdicts = latch_verdicts(history);
  } else {
    verdicts.reserve(std::size(kCheckers));
    for (const Checker checker : kCheckers) verdicts.push_back(checker(history));
  }
  // One order of the properties everywhere (sim/model/properties.hpp): the reports and [expect] read it there.
  LOCKCHECK_ASSERT(verdicts.size() == std::size(sim::kProperties));
  for (std::size_t i = 0; i < verdicts.size(); ++i) LOCKCHECK_ASSERT(verdicts[i].property == sim::kProperties[i].name);
  mark_cut_short(history, verdicts);
  return verdicts;
}

Verdict check_one(const History& history, std::string_view property) {
  for (std::size_t i = 0; i < std::size(sim::kProperties); ++i) {
    if (sim::kProperties[i].name != property) continue;
    std::vector<Verdict> verdicts;
    if (history.meta.latch > 0) verdicts.push_back(std::move(latch_verdicts(history)[i]));
    else verdicts.push_back(kCheckers[i](history));
    mark_cut_short(history, verdicts);
    return std::move(verdicts.front());
  }
  throw std::invalid_argument(fmt::format("no property named '{}'", property));
}

std::vector<Verdict> check_jsonl(std::istream& in) { return check_all(parse_history(in)); }

}  // namespace lockcheck::properties
