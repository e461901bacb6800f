#pragma once
// How the writers read a cell: one status per (cell, property), and the words for properties, so that
// matrix.md, report.html and results.json say the same thing the same way.
#include <string>
#include <string_view>
#include <vector>

#include "comparison.hpp"

namespace lockcheck::reports {

// The three levels of mutual exclusion, each its own table (DESIGN: a pause breaks the client level of
// every lock with auto-release, the server level holds for a correct token lock, only fencing keeps the
// resource level).
inline constexpr std::string_view kExclusionLevels[] = {"mutual_exclusion_server", "mutual_exclusion_client",
                                                        "mutual_exclusion_resource"};

enum class Status {
  holds,          // checked, never violated (some runs may have been unable to tell: holds_text says how many)
  broken,         // violated in at least one run
  not_exercised,  // every run was unable to tell
  not_checked,    // no result for this property
};

Status status_of(const PropertyResult* result);
std::string_view to_string(Status status);

// A cell that held: "✓" when every run judged the property (and none violated it), "✓ k/N" when only k of
// the N runs could judge it — "held in every run" is then not what the runs show.
std::string holds_text(const PropertyResult& result);
// Its tooltip: "held in all N runs" or "held in the k of N runs that could judge it; M could not tell".
std::string holds_title(const PropertyResult& result);

// The workload table (one row per variant): its column headers and one row's cells, in words.
std::vector<std::string> workload_headers();
std::vector<std::string> workload_cells(const Workload& workload);

// "server level", "owner-only release", ...; an unknown property keeps its id.
std::string property_label(std::string_view property);
// "Mutual exclusion, server level" for the levels, else the label.
std::string property_title(std::string_view property);

// Where a property comes in the checkers' order (check_all, scenarios/README.md); newer ones after.
std::size_t checker_rank(std::string_view property);
// Sorts property ids by checker_rank, then by name.
void sort_in_checker_order(std::vector<std::string>& properties);

// Properties other than the exclusion levels that any cell has, in checker order.
std::vector<std::string> other_properties(const Comparison& comparison);

// A cell of the "other properties" table: the broken ones, in order, the held ones that only some runs could
// judge, and whether any was checked at all.
struct OthersSummary {
  std::vector<const PropertyResult*> broken;
  std::vector<const PropertyResult*> partly_judged;  // held, but judged < runs
  bool any_checked = false;
};
OthersSummary summarize_others(const Cell& cell, const std::vector<std::string>& others);
// Such a cell with nothing broken: "✓" when every run judged each exercised property, else "✓ " and the
// partly judged ones, "bounded unavailability 7/10, reentrancy 8/10"; its tooltip says the same in words.
std::string others_held_text(const OthersSummary& summary);
std::string others_held_title(const OthersSummary& summary);

// A family's column title ("client pause > TTL"); an unknown id stays itself.
std::string family_title(const Comparison& comparison, const std::string& id);

// Non-gating diagnostics (PropertyResult::runs_with_diagnostics): never read by status_of. The properties
// that have one, cell by cell in the comparison's order (rows, columns, checker order).
struct DiagnosedResult {
  const Cell* cell;
  const PropertyResult* result;
};
std::vector<DiagnosedResult> diagnosed_results(const Comparison& comparison);
// The mark beside a cell's ✓/✗: "◇ k/N" (k of the N runs reported one); "" when none did.
std::string diagnostic_mark(const PropertyResult& result);
// Its tooltip: "not gating: per_node_double_grant in k of N runs, first seed S".
std::string diagnostic_title(const PropertyResult& result);
// The HTML id of a diagnostic's entry in report.html's list: "diag-token--pause--mutual_exclusion_server".
std::string diagnostic_anchor(const Cell& cell, const PropertyResult& result);

// The anchor of the counterexample drawn for this result (it has a first violating seed).
std::string counterexample_anchor(const Cell& cell, const PropertyResult& result);

// The cell the progress table reads for a variant: the baseline when it ran, else the first family's.
const Cell* progress_cell(const Comparison& comparison, const std::string& variant);

// "Progress (fault-free baseline, first seed)", or "(first column, ...)" when the baseline did not run.
std::string progress_heading(const Comparison& comparison);

// Acquisitions per simulated second with one decimal ("0.6"), from the first seed's count.
std::string rate_text(std::int64_t acquisitions, std::int64_t duration_us);

// "1.2" ms with one decimal, from microseconds (fixed formatting: the same bytes on every machine).
std::string milliseconds_text(std::int64_t micros);

}  // namespace lockcheck::reports
