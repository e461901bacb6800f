#include "verdict.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include <algorithm>

#include "lockcheck/assert.hpp"

namespace lockcheck::properties {

std::string_view to_string(Outcome outcome) {
  switch (outcome) {
    case Outcome::holds: return "holds";
    case Outcome::violated: return "violated";
    case Outcome::unknown: return "unknown";
  }
  return "unknown";
}

void to_json(nlohmann::json& out, const Verdict& verdict) {
  out = nlohmann::json{{"property", verdict.property},
                       {"outcome", std::string(to_string(verdict.outcome))},
                       {"summary", verdict.summary},
                       {"witnesses", verdict.witnesses},
                       {"cause", verdict.cause}};
  if (!verdict.diagnostics.empty()) {
    nlohmann::json list = nlohmann::json::array();
    for (const Diagnostic& diagnostic : verdict.diagnostics) {
      list.push_back({{"name", diagnostic.name},
                      {"count", diagnostic.count},
                      {"witnesses", diagnostic.witnesses},
                      {"cause", diagnostic.cause}});
    }
    out["diagnostics"] = std::move(list);
  }
}

std::string to_string(const Verdict& verdict) {
  std::string text = fmt::format("{}: {}", verdict.property, to_string(verdict.outcome));
  if (!verdict.summary.empty()) text += fmt::format(" — {}", verdict.summary);
  if (!verdict.witnesses.empty()) text += fmt::format(" [witness lines {}]", fmt::join(verdict.witnesses, ", "));
  if (!verdict.cause.empty()) text += fmt::format("; cause: {}", verdict.cause);
  for (const Diagnostic& diagnostic : verdict.diagnostics) {
    text += fmt::format("; diagnostic {} ({}) [witness lines {}]: {}", diagnostic.name, diagnostic.count,
                        fmt::join(diagnostic.witnesses, ", "), diagnostic.cause);
  }
  return text;
}

Verdict restricted_to(const Verdict& verdict, const std::string& clause) {
  const auto it = std::find_if(verdict.clauses.begin(), verdict.clauses.end(),
                               [&](const Verdict::ClauseViolation& violation) { return violation.clause == clause; });
  LOCKCHECK_ASSERT(it != verdict.clauses.end());
  Verdict out = verdict;
  out.clause = it->clause;
  out.witnesses = it->witnesses;
  out.cause = it->cause;
  out.tags = it->tags;
  return out;
}

bool violated_clause(const Verdict& verdict, const std::string& clause) {
  if (verdict.outcome != Outcome::violated) return false;
  if (clause.empty()) return true;
  return std::any_of(verdict.clauses.begin(), verdict.clauses.end(),
                     [&](const Verdict::ClauseViolation& violation) { return violation.clause == clause; });
}

std::string selector(const std::string& property, const std::string& clause) {
  return clause.empty() ? property : property + "/" + clause;
}

std::pair<std::string, std::string> split_selector(const std::string& selector) {
  const std::size_t slash = selector.find('/');
  if (slash == std::string::npos) return {selector, ""};
  return {selector.substr(0, slash), selector.substr(slash + 1)};
}

void conclude(Verdict& verdict, std::int64_t violations, std::int64_t exercised, std::string violated_summary,
              std::string unexercised_summary, std::string held_summary) {
  if (violations > 0) {
    verdict.outcome = Outcome::violated;
    verdict.summary = std::move(violated_summary);
  } else if (exercised == 0) {
    verdict.outcome = Outcome::unknown;
    verdict.summary = std::move(unexercised_summary);
  } else {
    verdict.outcome = Outcome::holds;
    verdict.summary = std::move(held_summary);
  }
}

bool has_tag(const Verdict& verdict, std::string_view tag) {
  return std::find(verdict.tags.begin(), verdict.tags.end(), tag) != verdict.tags.end();
}

bool late_holder(const Verdict& verdict) { return has_tag(verdict, kPastOwnValidity); }

bool taken_by_a_fault(const Verdict& verdict) { return has_tag(verdict, kTakenByAFault); }

}  // namespace lockcheck::properties
