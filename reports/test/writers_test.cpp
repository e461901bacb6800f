// The writers: byte-for-byte determinism, escaping of everything that comes from a history or the user, and
// links from a broken cell to its counterexample's timeline.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "reports/cell_status.hpp"
#include "reports/compare_junit.hpp"
#include "reports/escape.hpp"
#include "reports/matrix_markdown.hpp"
#include "reports/report_html.hpp"
#include "reports/results_json.hpp"
#include "sample_comparison.hpp"

namespace lockcheck::reports {
namespace {

std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++count;
  return count;
}

TEST(Writers, SameComparisonSameBytes) {
  EXPECT_EQ(matrix_markdown(testing::sample_comparison()), matrix_markdown(testing::sample_comparison()));
  EXPECT_EQ(report_html(testing::sample_comparison()), report_html(testing::sample_comparison()));
  EXPECT_EQ(results_json(testing::sample_comparison()), results_json(testing::sample_comparison()));
  EXPECT_EQ(compare_junit_xml(testing::sample_comparison()), compare_junit_xml(testing::sample_comparison()));
}

TEST(MatrixMarkdown, BrokenCellLinksToItsTimeline) {
  const std::string md = matrix_markdown(testing::sample_comparison());
  EXPECT_NE(md.find("✗ 2/3 [seed 3](report.html#cx-token--pause--seed3)"), std::string::npos) << md;
  EXPECT_NE(md.find("## Mutual exclusion, server level"), std::string::npos);
  EXPECT_NE(md.find("## Mutual exclusion, client level"), std::string::npos);
  EXPECT_NE(md.find("## Mutual exclusion, resource level"), std::string::npos);
  EXPECT_NE(md.find("| `fenced` | ✓ | ✓ |"), std::string::npos) << md;
  EXPECT_NE(md.find("| `token` | 120 | 15.0 | 1.2 | 56.8 | 0 |"), std::string::npos) << md;
}

TEST(MatrixMarkdown, AHoldsCellSaysHowManyRunsJudged) {
  const std::string md = matrix_markdown(testing::sample_comparison());
  // Resource level: fenced held under no faults in all 3 runs, under the pause in the 2 that could judge it.
  EXPECT_NE(md.find("| `fenced` | ✓ | ✓ 2/3 |"), std::string::npos) << md;
  EXPECT_NE(md.find("✓ held in every run, each of which could judge it; ✓ k/N: held in the k of N runs that could "
                    "judge it"),
            std::string::npos);
}

TEST(MatrixMarkdown, AnOthersCellNamesThePartlyJudgedProperties) {
  Comparison comparison = testing::sample_comparison();
  comparison.cells[2].properties[3].unknown = 3;  // fenced under no faults: owner-only release judged by no run
  comparison.cells[2].properties[4].unknown = 1;  // and reentrancy by 2 of the 3
  const std::string md = matrix_markdown(comparison);
  EXPECT_NE(md.find("| `fenced` | ✓ reentrancy 2/3 | ✓ |"), std::string::npos) << md;
  const std::string html = report_html(comparison);
  EXPECT_NE(html.find("<td class=\"holds\" title=\"none broke; reentrancy: held in the 2 of 3 runs that could judge it; "
                      "1 could not tell\">✓ reentrancy 2/3</td>"),
            std::string::npos);
}

TEST(MatrixMarkdown, DisclosesEachVariantsWorkload) {
  const std::string md = matrix_markdown(testing::sample_comparison());
  EXPECT_NE(md.find("## Workload per variant"), std::string::npos);
  EXPECT_NE(md.find("| `token` | 3 | 1000 | 50–200 | 1–20 | 2000 | – | – | 1 master | – | – | 8 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| `fenced` | 3 | 1000 | 0.5–2500 | 1–20 | 2000 | every 2nd acquisition | 12.5% of acquisitions | "
                    "1 master, 1 replica | the resource checks tokens | – | 8.5 |"),
            std::string::npos)
      << md;
}

TEST(MatrixMarkdown, ASemaphoresWorkloadSaysItsPermits) {
  Comparison comparison = testing::sample_comparison();
  comparison.workloads[0].permits = 3;
  const std::string md = matrix_markdown(comparison);
  EXPECT_NE(md.find("| `token` | 3 | 1000 | 50–200 | 1–20 | 2000 | – | – | 1 master | – | 3 (a semaphore) | 8 |"),
            std::string::npos)
      << md;
  EXPECT_EQ(nlohmann::json::parse(results_json(comparison))["workloads"][0]["permits"], 3);
}

TEST(MatrixMarkdown, EscapesTableSeparators) {
  const std::string md = matrix_markdown(testing::sample_comparison("a|b"));
  EXPECT_NE(md.find("pauses a\\|b"), std::string::npos);
}

TEST(ReportHtml, BrokenCellLinksToAnExistingTimeline) {
  const std::string html = report_html(testing::sample_comparison());
  EXPECT_NE(html.find("href=\"#cx-token--pause--seed3\""), std::string::npos);
  EXPECT_EQ(occurrences(html, "id=\"cx-token--pause--seed3\""), 1u);
  EXPECT_EQ(occurrences(html, "<svg class=\"timeline\""), 1u);
  EXPECT_NE(html.find("data-lanes=\"4\""), std::string::npos);
  EXPECT_EQ(occurrences(html, "<g class=\"lane\""), 4u);
  EXPECT_NE(html.find("class=\"violation client\""), std::string::npos);
  EXPECT_NE(html.find("lockcheck compare --variants token --faults pause --seed 3"), std::string::npos);
}

TEST(ReportHtml, AHoldsCellSaysHowManyRunsJudged) {
  const std::string html = report_html(testing::sample_comparison());
  EXPECT_NE(html.find("<td class=\"holds\" title=\"held in the 2 of 3 runs that could judge it; 1 could not tell\">"
                      "✓ 2/3</td>"),
            std::string::npos);
  EXPECT_NE(html.find("<td class=\"holds\" title=\"held in all 3 runs\">✓</td>"), std::string::npos);
}

TEST(ReportHtml, DisclosesEachVariantsWorkload) {
  const std::string html = report_html(testing::sample_comparison());
  EXPECT_NE(html.find("<h2 id=\"workloads\">Workload per variant</h2>"), std::string::npos);
  EXPECT_NE(html.find("<tr><th><code>fenced</code></th><td>3</td><td>1000</td><td>0.5–2500</td>"), std::string::npos);
  EXPECT_NE(html.find("<td>every 2nd acquisition</td><td>12.5% of acquisitions</td>"), std::string::npos);
}

TEST(ReportHtml, SelfContained) {
  const std::string html = report_html(testing::sample_comparison());
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos);
  EXPECT_EQ(html.find("http://", html.find("<body")), html.find("http://www.w3.org/2000/svg", html.find("<body")));
}

TEST(ReportHtml, EscapesTextFromHistoriesAndUsers) {
  const std::string hostile = "<script>alert(\"x\")</script> & 'q'";
  const std::string html = report_html(testing::sample_comparison(hostile));
  EXPECT_EQ(html.find("<script>"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;"), std::string::npos);
}

TEST(Escape, Markup) { EXPECT_EQ(markup_escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&#39;"); }

TEST(ResultsJson, CellsCarryBackendAndCounterexample) {
  const auto json = nlohmann::json::parse(results_json(testing::sample_comparison()));
  EXPECT_EQ(json["backend"], "mock");
  ASSERT_EQ(json["cells"].size(), 4u);
  const auto& token_pause = json["cells"][1];
  EXPECT_EQ(token_pause["backend"], "mock");
  EXPECT_EQ(token_pause["fault"], "pause");
  EXPECT_EQ(token_pause["properties"]["mutual_exclusion_client"]["status"], "broken");
  EXPECT_EQ(token_pause["properties"]["mutual_exclusion_client"]["counterexample"], "cx-token--pause--seed3");
  EXPECT_EQ(token_pause["properties"]["reentrancy"]["status"], "not exercised");
  EXPECT_EQ(token_pause["properties"]["reentrancy"]["judged"], 0);
  EXPECT_EQ(json["counterexamples"][0]["seed"], 3);
}

TEST(ResultsJson, JudgedCountsAndWorkloads) {
  const auto json = nlohmann::json::parse(results_json(testing::sample_comparison()));
  const auto& resource = json["cells"][3]["properties"]["mutual_exclusion_resource"];
  EXPECT_EQ(resource["status"], "holds");
  EXPECT_EQ(resource["runs"], 3);
  EXPECT_EQ(resource["judged"], 2);
  EXPECT_EQ(resource["unknown"], 1);
  ASSERT_EQ(json["workloads"].size(), 2u);
  EXPECT_EQ(json["workloads"][1]["variant"], "fenced");
  EXPECT_EQ(json["workloads"][1]["nest_every"], 2);
  EXPECT_EQ(json["workloads"][1]["readers_ppm"], 125000);
  EXPECT_EQ(json["workloads"][1]["hold_max_us"], 2'500'000);
}

// The sample without its diagnostics: what the ✓/✗ and JUnit must equal.
Comparison without_diagnostics(Comparison comparison) {
  for (Cell& cell : comparison.cells) {
    for (PropertyResult& result : cell.properties) {
      result.runs_with_diagnostics = 0;
      result.first_diagnostic_seed.reset();
      result.first_diagnostic_name.clear();
      result.first_diagnostic.clear();
    }
  }
  return comparison;
}

TEST(Diagnostics, ResultsJsonShowsThemBesideAnUnchangedStatus) {
  const auto json = nlohmann::json::parse(results_json(testing::sample_comparison()));
  const auto& fenced_baseline = json["cells"][2];
  ASSERT_EQ(fenced_baseline["variant"], "fenced");
  ASSERT_EQ(fenced_baseline["fault"], "baseline");
  const auto& server = fenced_baseline["properties"]["mutual_exclusion_server"];
  EXPECT_EQ(server["status"], "holds");
  EXPECT_EQ(server["violated"], 0);
  EXPECT_FALSE(server.contains("first_violating_seed"));
  EXPECT_EQ(server["diagnostic"]["gating"], false);
  EXPECT_EQ(server["diagnostic"]["name"], "per_node_double_grant");
  EXPECT_EQ(server["diagnostic"]["runs"], 2);
  EXPECT_EQ(server["diagnostic"]["first_seed"], 2);
  EXPECT_NE(server["diagnostic"]["first"].get<std::string>().find("one node gave the key to a second owner"),
            std::string::npos);
  EXPECT_EQ(json["cells"][3]["properties"]["owner_only_release"]["diagnostic"]["name"], "some_finding");
  EXPECT_FALSE(json["cells"][0]["properties"]["mutual_exclusion_server"].contains("diagnostic"));
}

TEST(Diagnostics, ReportHtmlShowsAMutedNoteUnderTheTickAndListsThem) {
  const std::string html = report_html(testing::sample_comparison("<b>"));
  EXPECT_NE(html.find("<td class=\"holds\" title=\"held in all 3 runs\">✓<br><a class=\"diagnostic\" "
                      "href=\"#diag-fenced--baseline--mutual_exclusion_server\" title=\"not gating: "
                      "per_node_double_grant in 2 of 3 runs, first seed 2\">◇ 2/3</a></td>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<a class=\"diagnostic\" href=\"#diag-fenced--pause--owner_only_release\""), std::string::npos);
  EXPECT_NE(html.find(">owner-only release ◇ 1/3</a>"), std::string::npos);
  EXPECT_NE(html.find("<h2 id=\"diagnostics\">Diagnostics (not gating)</h2>"), std::string::npos);
  EXPECT_EQ(occurrences(html, "<tr id=\"diag-fenced--baseline--mutual_exclusion_server\">"), 1u);
  EXPECT_EQ(occurrences(html, "<tr id=\"diag-fenced--pause--owner_only_release\">"), 1u);
  EXPECT_NE(html.find("first: node 0 &lt;b&gt;</td>"), std::string::npos);
  EXPECT_EQ(html.find("<b>"), std::string::npos);
}

TEST(Diagnostics, MatrixMarkdownListsThemAndKeepsTheCells) {
  const std::string md = matrix_markdown(testing::sample_comparison());
  EXPECT_NE(md.find("## Diagnostics (not gating)"), std::string::npos);
  EXPECT_NE(md.find("| `fenced` | no faults | server level | `per_node_double_grant` | 2/3 | 2 |"), std::string::npos)
      << md;
  // Everything before the list, the tables' cells included, is what it would be without diagnostics.
  const std::string plain = matrix_markdown(without_diagnostics(testing::sample_comparison()));
  const std::size_t list = md.find("\n## Diagnostics");
  EXPECT_EQ(md.substr(0, list), plain.substr(0, plain.find("\n## Diagnostics")));
  EXPECT_NE(plain.find("No run reported one."), std::string::npos);
}

TEST(Diagnostics, NeverChangeACellsStatusOrJunit) {
  const Comparison sample = testing::sample_comparison();
  const Cell& fenced_baseline = sample.cells[2];
  EXPECT_EQ(status_of(&fenced_baseline.properties[0]), Status::holds);
  EXPECT_EQ(compare_junit_xml(sample), compare_junit_xml(without_diagnostics(sample)));
  const auto with = nlohmann::json::parse(results_json(sample));
  const auto without = nlohmann::json::parse(results_json(without_diagnostics(sample)));
  for (std::size_t i = 0; i < with["cells"].size(); ++i) {
    for (const auto& [property, result] : with["cells"][i]["properties"].items()) {
      EXPECT_EQ(result["status"], without["cells"][i]["properties"][property]["status"]) << property;
    }
  }
}

TEST(CompareJunit, FailureForEachBrokenProperty) {
  const std::string xml = compare_junit_xml(testing::sample_comparison("<&>"));
  EXPECT_NE(xml.find("name=\"pause/mutual_exclusion_client\">"), std::string::npos) << xml;
  EXPECT_NE(xml.find("<failure message=\"broken in 2/3 runs\">"), std::string::npos);
  EXPECT_EQ(xml.find("<&>"), std::string::npos);
}

}  // namespace
}  // namespace lockcheck::reports
