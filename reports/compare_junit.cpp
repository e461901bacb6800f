#include "compare_junit.hpp"

#include <fmt/format.h>

#include "cell_status.hpp"
#include "escape.hpp"

namespace lockcheck::reports {

std::string compare_junit_xml(const Comparison& comparison) {
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"lockcheck compare\">\n";
  for (const std::string& variant : comparison.variants) {
    std::string cases;
    int tests = 0, failures = 0;
    for (const FamilyInfo& family : comparison.families) {
      const Cell* cell = find_cell(comparison, variant, family.id);
      if (cell == nullptr) continue;
      for (const PropertyResult& result : cell->properties) {
        const Status status = status_of(&result);
        if (status == Status::not_checked) continue;
        ++tests;
        cases += fmt::format("    <testcase classname=\"{}\" name=\"{}/{}\"", markup_escape(variant),
                             markup_escape(family.id), markup_escape(result.property));
        if (status == Status::broken) {
          ++failures;
          cases += fmt::format(">\n      <failure message=\"broken in {}/{} runs\">{}\nseed {}: {}</failure>\n    </testcase>\n",
                               result.violated, result.runs, markup_escape(result.first_violation.summary),
                               result.first_violating_seed.value_or(0), markup_escape(result.first_violation.cause));
        } else if (status == Status::not_exercised) {
          cases += "><skipped message=\"not exercised\"/></testcase>\n";
        } else {
          cases += "/>\n";
        }
      }
    }
    xml += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\">\n{}  </testsuite>\n",
                       markup_escape(variant), tests, failures, cases);
  }
  return xml + "</testsuites>\n";
}

}  // namespace lockcheck::reports
