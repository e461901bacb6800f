#pragma once
// A checker's answer: did the property hold on this history, and if not, which lines show it and why.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace lockcheck::properties {

// unknown: the history cannot tell (too short, or the property was not exercised). Never a violation.
enum class Outcome { holds, violated, unknown };

std::string_view to_string(Outcome outcome);

// A finding that does not decide the verdict but that a reader should see (counted, with the first witness):
// for a quorum lock, a double grant on one node that gave no one a second majority.
struct Diagnostic {
  std::string name;                      // e.g. "per_node_double_grant"
  std::int64_t count = 0;
  std::vector<std::int64_t> witnesses;   // the first occurrence's history lines
  std::string cause;
};

struct Verdict {
  std::string property;                  // e.g. "mutual_exclusion_server"
  Outcome outcome = Outcome::unknown;
  std::string summary;                   // one line for the summary table
  std::vector<std::int64_t> witnesses;   // history line indices ("i"), the first violation's evidence
  std::string cause;                     // what the history shows happened, in words
  std::vector<Diagnostic> diagnostics;   // non-gating findings beside the verdict
  // Facts of the first violation a program may act on (not written to reports): kPastOwnValidity.
  std::vector<std::string> tags;
  // A property that makes separate promises (a latch opens only after its count, and then for everyone) names
  // them: `clause` is the one the witnesses above broke (the first violation's), `clauses` every clause broken
  // in the run, each with its own first violation. Both empty for a property of one promise. Explore keeps
  // one find per (property, clause), so a latch that opened early does not hide one that never opens.
  std::string clause;
  struct ClauseViolation {
    std::string clause;
    std::vector<std::int64_t> witnesses;
    std::string cause;
    std::vector<std::string> tags;
  };
  std::vector<ClauseViolation> clauses;
};

// The verdict as seen through one of its clauses: the witnesses, cause and tags of that clause's first
// violation. Precondition: `clause` is among verdict.clauses.
Verdict restricted_to(const Verdict& verdict, const std::string& clause);
bool violated_clause(const Verdict& verdict, const std::string& clause);

// "property" or "property/clause": what explore, the shrinker and the reference judge one find by.
std::string selector(const std::string& property, const std::string& clause);
std::pair<std::string, std::string> split_selector(const std::string& selector);  // {property, clause}

// mutual_exclusion_client: the overlapping holder used the resource after its own validity had ended;
// mutual_exclusion_resource: one of the two writes of the lost update was such a holder's.
inline constexpr const char* kPastOwnValidity = "holder_past_own_validity";
// The verdict's first violation is a late holder's (kPastOwnValidity): the other acquired after its validity.
bool late_holder(const Verdict& verdict);
// mutual_exclusion_server: the first owner's instance was taken from the node by a fault, not by a command of a
// process (it expired early on a node's clock, was lost at a restart or a failover, evicted, or a rival master
// granted it): the node, not the lock, broke the promise (F5, F6, F7, F9, F10, F12).
inline constexpr const char* kTakenByAFault = "instance_taken_by_a_fault";
bool taken_by_a_fault(const Verdict& verdict);
// mutual_exclusion_client: the first holder's clock ran slower than the lock's drift margin while it held, by
// enough to explain the whole overlap (its validity, counted on that clock, outlasted its key: F12, F13).
inline constexpr const char* kHolderClockSlow = "holder_clock_slow_beyond_margin";
// bounded_unavailability: a dead holder's single-master lock came back late by no more than a node's clock was set
// back or ran slow meanwhile (its key outlived its TTL in true time: S7).
inline constexpr const char* kLateOnNodeClock = "key_late_on_a_node_clock";
bool has_tag(const Verdict& verdict, std::string_view tag);

void to_json(nlohmann::json& out, const Verdict& verdict);
std::string to_string(const Verdict& verdict);  // "property: outcome — summary [witnesses i=..] cause: .."

// The usual ending of a checker: violated when it counted violations, unknown when nothing exercised the
// property, holds otherwise; `summary` is the matching one of the three texts.
void conclude(Verdict& verdict, std::int64_t violations, std::int64_t exercised, std::string violated_summary,
              std::string unexercised_summary, std::string held_summary);

}  // namespace lockcheck::properties
