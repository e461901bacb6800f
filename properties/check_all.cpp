// The fixed set and order of verdicts that `lockcheck check` and scenario gates print.
#include <fmt/format.h>

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

}  // namespace

std::vector<Verdict> check_all(const History& history) {
  std::vector<Verdict> verdicts =
      history.meta.latch > 0
          ? latch_verdicts(history)
          : std::vector<Verdict>{
                check_mutual_exclusion_server(history), check_mutual_exclusion_client(history),
                check_mutual_exclusion_resource(history), check_owner_only_release(history),
                check_bounded_unavailability(history), check_reentrancy(history),
                check_renewal(history), check_fencing(history), check_permit_safety(history),
                check_latch(history), check_fairness(history),
            };
  // One order of the properties everywhere (sim/model/properties.hpp): the reports and [expect] read it there.
  LOCKCHECK_ASSERT(verdicts.size() == std::size(sim::kProperties));
  for (std::size_t i = 0; i < verdicts.size(); ++i) LOCKCHECK_ASSERT(verdicts[i].property == sim::kProperties[i].name);
  mark_cut_short(history, verdicts);
  return verdicts;
}

std::vector<Verdict> check_jsonl(std::istream& in) { return check_all(parse_history(in)); }

}  // namespace lockcheck::properties
