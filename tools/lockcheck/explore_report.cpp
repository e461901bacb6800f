#include "explore_report.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <iterator>

#include "properties/exercise.hpp"
#include "properties/verdict.hpp"
#include "scenario/scenario.hpp"

namespace lockcheck::cli {
namespace {

std::string seconds_text(std::int64_t us) { return fmt::format("{}.{:03}s", us / 1000000, us / 1000 % 1000); }

// The sentence that describes a mark, found by its name ("" for a name this lockcheck does not know).
std::string_view mark_description(const std::string& name) {
  for (std::size_t m = 0; m < properties::kMarkCount; ++m) {
    const auto mark = static_cast<properties::Mark>(m);
    if (properties::to_string(mark) == name) return properties::describe(mark);
  }
  return "";
}

void print_own_bug(const explore::FindRecord& find, const ReportFiles& files) {
  const std::string path = path_in(files.directory, find.file);
  const std::string whose = find.search < files.searches.size() ? " of " + files.searches[find.search] : std::string();
  const std::string clause = find.clause.empty() ? "" : " (" + find.clause + ")";
  std::printf("  FOUND %s violated%s: the lock's own bug (run %llu%s, seed %llu, at t=%s)\n    %s\n", find.property.c_str(), clause.c_str(),
              static_cast<unsigned long long>(find.run), whose.c_str(), static_cast<unsigned long long>(find.seed),
              seconds_text(find.violation_us).c_str(), find.cause.c_str());
  std::printf("    own bug: %s\n", find.decided_by.c_str());
  if (!find.story.empty()) std::printf("    what happened:\n");
  for (const std::string& sentence : find.story) std::printf("      - %s\n", sentence.c_str());
  std::printf("    minimal schedule (%zu fault(s), %s, %lld %s to shrink):\n", find.schedule.size(),
              find.one_minimal ? "each needed" : "NOT 1-minimal: the shrink budget ran out",
              static_cast<long long>(find.shrink_simulations), files.shrink_unit.c_str());
  for (const std::string& fault : find.schedule) std::printf("      %s\n", fault.c_str());
  if (find.reproduced) {
    std::printf("    %s %s\n    replay: %s %s\n", files.verb.c_str(), path.c_str(), files.replay.c_str(), path.c_str());
  } else {
    std::printf("    %s %s, but it does NOT reproduce: %s\n", files.verb.c_str(), path.c_str(), find.problem.c_str());
  }
}

void print_limit(const explore::FindRecord& example, const ReportFiles& files) {
  const auto& theory = example.theory;
  const std::string property = properties::selector(example.property, example.clause);
  std::printf("    %s in %lld run(s): %s; theory: %s\n", property.c_str(), static_cast<long long>(example.runs),
              example.fault_kinds.empty() ? "no fault" : fmt::format("{}", fmt::join(example.fault_kinds, ", ")).c_str(),
              theory ? fmt::format("{} ({})", theory->cases, theory->because).c_str() : "no case names it");
  std::printf("      %s\n", example.decided_by.c_str());
  const std::string hint = theory && !theory->fault.empty()
                               ? "--without " + theory->fault + " leaves it out"
                               : std::string("check the lease before writing (--check-lease), or fence the resource");
  const std::string path = path_in(files.directory, example.file);
  if (example.reproduced) {
    std::printf("      e.g. %s (%s)\n", path.c_str(), hint.c_str());
  } else {
    std::printf("      e.g. %s (%s), but it does NOT reproduce: %s\n", path.c_str(), hint.c_str(), example.problem.c_str());
  }
}

}  // namespace

std::string path_in(const std::string& directory, const std::string& file) {
  if (directory.empty()) return file;
  return (std::filesystem::path(directory) / file).generic_string();
}

void print_lock_report(const explore::LockRecord& lock, const std::string& header, const std::vector<std::string>& notes,
                       const ReportFiles& files) {
  std::printf("\nexplore %s  (%s)\n", lock.lock.c_str(), header.c_str());
  for (const std::string& note : notes) std::printf("  %s\n", note.c_str());
  if (lock.finds.empty()) std::printf("  no bug of the lock's own found within the budget\n");
  for (const explore::FindRecord& find : lock.finds) print_own_bug(find, files);
  if (!lock.limits.empty()) {
    std::printf("  known limits met (the fault model breaks every lock of this kind so; not the lock's bug):\n");
  }
  for (const explore::FindRecord& example : lock.limits) print_limit(example, files);
  for (const std::string& failure : lock.replay_failures) std::printf("  NOT REPRODUCED: %s\n", failure.c_str());
  std::printf("  held (runs that judged it and saw no violation):");
  for (const auto& [property, runs] : lock.held) std::printf(" %s %lld;", property.c_str(), static_cast<long long>(runs));
  const explore::ExerciseRecord& exercise = lock.exercise;
  std::printf("\n  exercised: %lld acquires (%lld granted), %lld releases, %lld renewals, %lld unknown outcomes, "
              "%lld faults (%lld while the lock was held)\n",
              static_cast<long long>(exercise.acquires), static_cast<long long>(exercise.acquired),
              static_cast<long long>(exercise.releases), static_cast<long long>(exercise.renews),
              static_cast<long long>(exercise.unknown_outcomes), static_cast<long long>(exercise.faults),
              static_cast<long long>(exercise.faults_during_hold));
  std::printf("  marks (runs that reached each; %zu pairs; %llu runs kept for mutation):\n", lock.pairs.size(),
              static_cast<unsigned long long>(lock.kept));
  for (const explore::MarkRecord& mark : lock.marks) {
    const bool reached = mark.runs > 0;
    const std::string& why_not = mark.not_applicable;
    std::printf("    %-26s %8s  %s%s%s\n", mark.mark.c_str(),
                reached ? std::to_string(mark.runs).c_str() : why_not.empty() ? "never" : "n/a",
                reached || !why_not.empty() ? "" : "BLIND SPOT: ", std::string(mark_description(mark.mark)).c_str(),
                !reached && !why_not.empty() ? fmt::format(" ({})", why_not).c_str() : "");
  }
}

std::string profile_markdown(const std::vector<explore::LockRecord>& locks, const std::string& how) {
  std::string text = fmt::format(
      "# Fault profile of the catalogue (generated)\n\n{}. Each cell: the minimal fault schedule explore found that "
      "violates the property, or `held (N)`: N runs judged it and none violated it; `-`: no run could judge it. An own "
      "bug is one the reference lock of the variant's kind keeps under the same schedule; a \"known limit\" one it "
      "breaks too (tools/explore/reference.hpp), with its theory case where one names it. explore writes every find as "
      "a scenario file into its --out directory.\n\n| variant |",
      how);
  for (const std::string_view property : sim::kExpectableProperties) text += fmt::format(" {} |", property);
  text += "\n|---|";
  for (std::size_t i = 0; i < std::size(sim::kExpectableProperties); ++i) text += "---|";
  text += "\n";
  const auto schedule = [](const explore::FindRecord& find) {
    return find.schedule.empty() ? std::string("no fault") : fmt::format("{}", fmt::join(find.schedule, "; "));
  };
  for (const explore::LockRecord& lock : locks) {
    text += fmt::format("| {} |", lock.lock);
    for (const std::string_view property : sim::kExpectableProperties) {
      std::string cell = "-";
      const auto held = lock.held.find(std::string(property));
      if (held != lock.held.end()) cell = fmt::format("held ({})", held->second);
      // A property of several clauses (properties/clauses.hpp) may have a find per clause: each is named.
      const auto clause = [](const explore::FindRecord& find) { return find.clause.empty() ? std::string() : find.clause + ": "; };
      std::vector<std::string> limits, own;
      for (const explore::FindRecord& met : lock.limits) {
        if (met.property != property) continue;
        limits.push_back(fmt::format("known limit ({}{}, {} runs): {}", clause(met), met.theory ? met.theory->cases : "reference breaks too",
                                     met.runs, schedule(met)));
      }
      if (!limits.empty()) {
        cell = fmt::format("{}{}", fmt::join(limits, "; "), held != lock.held.end() ? fmt::format("; held ({})", held->second) : "");
      }
      for (const explore::FindRecord& find : lock.finds) {
        if (find.property == property) own.push_back(clause(find) + schedule(find));
      }
      if (!own.empty()) cell = fmt::format("**violated (own bug)**: {}", fmt::join(own, " **and** "));
      text += fmt::format(" {} |", cell);
    }
    text += "\n";
  }
  return text;
}

}  // namespace lockcheck::cli
