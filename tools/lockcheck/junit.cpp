#include "junit.hpp"

#include <fmt/format.h>

#include "reports/escape.hpp"

namespace lockcheck::cli {
namespace {

// The same escaping as the comparison reports (reports/escape.hpp).
std::string escape(const std::string& text) { return reports::markup_escape(text); }

}  // namespace

std::string junit_xml(const std::vector<ScenarioReport>& reports) {
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"lockcheck\">\n";
  for (const auto& report : reports) {
    const auto& scenario = report.scenario;
    xml += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" time=\"{:.3f}\">\n", escape(scenario.name),
                       scenario.expectations.size(), report.mismatches.size(), report.wall_seconds);
    for (const auto& expectation : scenario.expectations) {
      xml += fmt::format("    <testcase classname=\"{}\" name=\"{}\">\n", escape(scenario.name), escape(expectation.property));
      for (const auto& mismatch : report.mismatches) {
        if (mismatch.property != expectation.property) continue;
        std::string body = mismatch.explanation + "\nreplay: " + mismatch.replay_command;
        for (const auto& fault : mismatch.minimal_faults) body += "\nminimal fault: " + fault;
        xml += fmt::format("      <failure message=\"expected {}\">{}</failure>\n",
                           sim::to_string(expectation.expected), escape(body));
      }
      xml += "    </testcase>\n";
    }
    if (!report.client_hangs.empty()) {
      std::string body;
      for (const std::string& hang : report.client_hangs) body += (body.empty() ? "" : "\n") + hang;
      xml += fmt::format("    <testcase classname=\"{}\" name=\"client_hangs\"><error message=\"a client hung\">{}</error></testcase>\n",
                         escape(scenario.name), escape(body));
    }
    if (report.nondeterministic) {
      xml += fmt::format("    <testcase classname=\"{}\" name=\"determinism\"><error message=\"nondeterminism\">{}</error></testcase>\n",
                         escape(scenario.name), escape(report.nondeterminism_detail));
    }
    xml += "  </testsuite>\n";
  }
  return xml + "</testsuites>\n";
}

}  // namespace lockcheck::cli
