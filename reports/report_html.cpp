#include "report_html.hpp"

#include <fmt/format.h>

#include "cell_status.hpp"
#include "escape.hpp"
#include "timeline_svg.hpp"

namespace lockcheck::reports {
namespace {

constexpr const char* kStyle = R"(
body { font: 14px/1.45 system-ui, sans-serif; margin: 1.5em auto; max-width: 1100px; color: #222; padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { margin-top: 2em; border-bottom: 1px solid #ddd; } h3 { margin-bottom: .3em; }
code, pre { font: 12.5px ui-monospace, monospace; background: #f4f4f4; padding: 1px 4px; border-radius: 3px; }
pre.replay { padding: 6px 8px; overflow-x: auto; }
table { border-collapse: collapse; margin: .5em 0; }
th, td { border: 1px solid #ccc; padding: 3px 7px; text-align: center; vertical-align: top; }
th:first-child { text-align: left; } td, tbody th { white-space: nowrap; }
td.broken { background: #fde2e1; } td.holds { background: #e3f4e1; } td.not-exercised { color: #888; }
td a { color: #a40000; font-weight: 600; text-decoration: none; } td a:hover { text-decoration: underline; }
.counterexample { margin: 1.5em 0 2.5em; }
.violations li { margin: .2em 0; } .cause { color: #444; }
.legend span { display: inline-block; margin-right: 1.2em; }
.swatch { display: inline-block; width: 14px; height: 10px; margin-right: 4px; vertical-align: middle; }
svg.timeline { display: block; max-width: 100%; height: auto; border: 1px solid #ddd; background: #fff; }
svg.timeline .lane-bg { fill: #fafafa; } svg.timeline .lane-bg.odd { fill: #f1f1f1; }
svg.timeline .lane-label { font: 12px sans-serif; fill: #333; }
svg.timeline .tick { stroke: #e2e2e2; } svg.timeline .tick-label { font: 10px sans-serif; fill: #777; text-anchor: middle; }
svg.timeline .read-hold { opacity: .5; stroke: #333; stroke-dasharray: 3 2; }
svg.timeline .validity { opacity: .55; } svg.timeline .instance { opacity: .75; }
svg.timeline .pause, .swatch.pause { fill: #c9c9ff; background: #c9c9ff; opacity: .8; }
svg.timeline .crash, .swatch.crash { fill: #bbbbbb; background: #bbbbbb; opacity: .8; }
svg.timeline .partition, .swatch.partition { fill: #ffe8a8; background: #ffe8a8; opacity: .8; }
svg.timeline .down, .swatch.down { fill: #d8d8d8; background: #d8d8d8; opacity: .9; }
svg.timeline .mark { font: 12px sans-serif; text-anchor: middle; fill: #333; }
svg.timeline .hold, svg.timeline .read-hold, svg.timeline .validity, svg.timeline .instance { fill: #999999; }
svg.timeline .created { fill: #2a7a2a; } svg.timeline .expired { fill: #b86e00; }
svg.timeline .deleted { fill: #333; } svg.timeline .lost, svg.timeline .evicted { fill: #c00000; }
svg.timeline .write { stroke: #333; stroke-width: 1.5; } svg.timeline .stale-write { stroke: #d00000; stroke-width: 3; }
svg.timeline .rejected-write { stroke: #999; stroke-width: 1.5; stroke-dasharray: 2 2; }
svg.timeline .witness { fill: none; stroke: #d00000; stroke-width: 2; }
svg.timeline .global-fault { stroke: #7a3db8; stroke-width: 1.5; stroke-dasharray: 4 3; }
svg.timeline .violation { opacity: .2; }
svg.timeline .violation.server, .swatch.server { fill: #7a3db8; background: #7a3db8; }
svg.timeline .violation.client, .swatch.client { fill: #ff0000; background: #ff0000; }
svg.timeline .violation.resource, .swatch.resource { fill: #ff8c00; background: #ff8c00; }
svg.timeline .violation.other, .swatch.other { fill: #8b5a00; background: #8b5a00; }
.swatch.server, .swatch.client, .swatch.resource, .swatch.other { opacity: .35; }
td a.diagnostic { color: #777; font-weight: normal; font-size: .85em; }
table.diagnostics { color: #555; } table.diagnostics td.first { white-space: normal; text-align: left; font-size: .9em; }
)";

std::string broken_cell(const Cell& cell, const PropertyResult& result) {
  return fmt::format("<a href=\"#{}\" title=\"first seen in seed {}\">✗ {}/{}</a>",
                     markup_escape(counterexample_anchor(cell, result)), result.first_violating_seed.value_or(0),
                     result.violated, result.runs);
}

// A muted "◇ k/N" under a cell's ✓/✗ when runs reported a non-gating diagnostic, linking to its entry in the
// Diagnostics list; "" otherwise. `label` names the property where the cell holds several (other properties).
std::string diagnostic_link(const Cell& cell, const PropertyResult& result, const std::string& label = "") {
  if (result.runs_with_diagnostics == 0) return "";
  return fmt::format("<br><a class=\"diagnostic\" href=\"#{}\" title=\"{}\">{}{}</a>",
                     markup_escape(diagnostic_anchor(cell, result)), markup_escape(diagnostic_title(result)),
                     label.empty() ? "" : markup_escape(label) + " ", diagnostic_mark(result));
}

std::string level_td(const Cell* cell, const std::string& property) {
  if (cell == nullptr) return "<td></td>";
  const PropertyResult* result = find_property(*cell, property);
  switch (status_of(result)) {
    case Status::broken:
      return "<td class=\"broken\">" + broken_cell(*cell, *result) + diagnostic_link(*cell, *result) + "</td>";
    case Status::holds:
      return fmt::format("<td class=\"holds\" title=\"{}\">{}{}</td>", markup_escape(holds_title(*result)),
                         holds_text(*result), diagnostic_link(*cell, *result));
    case Status::not_exercised: return "<td class=\"not-exercised\">–" + diagnostic_link(*cell, *result) + "</td>";
    case Status::not_checked: return "<td></td>";
  }
  return "<td></td>";
}

std::string others_diagnostics(const Cell& cell, const std::vector<std::string>& others) {
  std::string out;
  for (const std::string& property : others) {
    if (const PropertyResult* result = find_property(cell, property)) {
      out += diagnostic_link(cell, *result, property_label(property));
    }
  }
  return out;
}

std::string others_td(const Cell* cell, const std::vector<std::string>& others) {
  if (cell == nullptr) return "<td></td>";
  const OthersSummary summary = summarize_others(*cell, others);
  const std::string diagnostics = others_diagnostics(*cell, others);
  if (summary.broken.empty()) {
    if (!summary.any_checked) return "<td class=\"not-exercised\">–" + diagnostics + "</td>";
    return fmt::format("<td class=\"holds\" title=\"{}\">{}{}</td>", markup_escape(others_held_title(summary)),
                       markup_escape(others_held_text(summary)), diagnostics);
  }
  std::string text;
  for (const PropertyResult* result : summary.broken) {
    text += (text.empty() ? "" : "<br>") + markup_escape(property_label(result->property)) + " " +
            broken_cell(*cell, *result);
  }
  return "<td class=\"broken\">" + text + diagnostics + "</td>";
}

// Every non-gating diagnostic, one row per (cell, property), each the target of its cell's "◇ k/N".
std::string diagnostics_section(const Comparison& comparison) {
  std::string out =
      "<h2 id=\"diagnostics\">Diagnostics (not gating)</h2>\n<p>What a checker reports beside its verdict without "
      "deciding it: for a quorum lock (Redlock), a master that gave the key to a second client while the first "
      "still held it there, when no client held a second majority. ◇ k/N under a cell: k of its N runs reported "
      "one. A diagnostic never changes a ✓ or ✗, nor the JUnit outcome; <code>lockcheck compare --variants V "
      "--faults F --seed S --history-dir .</code> writes the first such run's history.</p>\n";
  const std::vector<DiagnosedResult> diagnosed = diagnosed_results(comparison);
  if (diagnosed.empty()) return out + "<p>No run reported one.</p>\n";
  out += "<table class=\"diagnostics\">\n<thead><tr><th>variant</th><th>fault</th><th>property</th><th>diagnostic</th>"
         "<th>runs</th><th>first seed</th><th>first occurrence</th></tr></thead>\n<tbody>\n";
  for (const auto& [cell, result] : diagnosed) {
    out += fmt::format(
        "<tr id=\"{}\"><th><code>{}</code></th><td>{}</td><td>{}</td><td><code>{}</code></td><td>{}/{}</td><td>{}</td>"
        "<td class=\"first\">{}</td></tr>\n",
        markup_escape(diagnostic_anchor(*cell, *result)), markup_escape(cell->variant),
        markup_escape(family_title(comparison, cell->family)), markup_escape(property_title(result->property)),
        markup_escape(result->first_diagnostic_name), result->runs_with_diagnostics, result->runs,
        result->first_diagnostic_seed.value_or(0), markup_escape(result->first_diagnostic));
  }
  return out + "</tbody></table>\n";
}

template <typename CellTd>
std::string matrix_table(const Comparison& comparison, const std::string& property, CellTd cell_td) {
  std::string out = fmt::format("<table class=\"matrix\" data-property=\"{}\">\n<thead><tr><th>variant</th>",
                                markup_escape(property));
  for (const FamilyInfo& family : comparison.families) {
    out += fmt::format("<th title=\"{}\">{}</th>", markup_escape(family.description), markup_escape(family.title));
  }
  out += "</tr></thead>\n<tbody>\n";
  for (const std::string& variant : comparison.variants) {
    out += "<tr><th><code>" + markup_escape(variant) + "</code></th>";
    for (const FamilyInfo& family : comparison.families) out += cell_td(find_cell(comparison, variant, family.id));
    out += "</tr>\n";
  }
  return out + "</tbody></table>\n";
}

std::string progress_table(const Comparison& comparison) {
  std::string out =
      "<table class=\"progress\">\n<thead><tr><th>variant</th><th>acquisitions</th><th>acquisitions/s</th>"
      "<th>wait p50 (ms)</th><th>wait p99 (ms)</th><th>starved clients</th></tr></thead>\n<tbody>\n";
  for (const std::string& variant : comparison.variants) {
    const Cell* cell = progress_cell(comparison, variant);
    if (cell == nullptr) continue;
    const properties::Progress& progress = cell->progress;
    out += fmt::format("<tr><th><code>{}</code></th><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                       markup_escape(variant), progress.acquisitions, rate_text(progress.acquisitions, cell->duration_us),
                       milliseconds_text(progress.wait_p50_us), milliseconds_text(progress.wait_p99_us),
                       progress.starved_processes.size());
  }
  return out + "</tbody></table>\n";
}

std::string workload_table(const Comparison& comparison) {
  std::string out = "<table class=\"workload\">\n<thead><tr><th>variant</th>";
  for (const std::string& header : workload_headers()) out += "<th>" + markup_escape(header) + "</th>";
  out += "</tr></thead>\n<tbody>\n";
  for (const std::string& variant : comparison.variants) {
    const Workload* workload = find_workload(comparison, variant);
    if (workload == nullptr) continue;
    out += "<tr><th><code>" + markup_escape(variant) + "</code></th>";
    for (const std::string& cell : workload_cells(*workload)) out += "<td>" + markup_escape(cell) + "</td>";
    out += "</tr>\n";
  }
  return out + "</tbody></table>\n";
}

std::string legend() {
  std::string out = "<p class=\"legend\">";
  out += fmt::format("<span><i class=\"swatch\" style=\"background:{}\"></i>hold (acquire → release), one colour per "
                     "client; dashed and pale: a read (shared) hold</span>", owner_colour(0));
  out += "<span><i class=\"swatch\" style=\"background:#4e79a7;opacity:.55;height:4px\"></i>the client's believed "
         "validity</span>";
  out += "<span><i class=\"swatch\" style=\"background:#4e79a7;opacity:.75\"></i>key on a node (owner's colour)</span>";
  out += "<span><i class=\"swatch pause\"></i>pause</span><span><i class=\"swatch crash\"></i>client crashed</span>";
  out += "<span><i class=\"swatch partition\"></i>partitioned</span><span><i class=\"swatch down\"></i>node down</span>";
  out += "<span>violation: <i class=\"swatch server\"></i>server level <i class=\"swatch client\"></i>client level "
         "<i class=\"swatch resource\"></i>resource level <i class=\"swatch other\"></i>other</span>";
  out += "<span>○ witness (history line)</span>";
  out += "<span>▲ created ▼ overwritten ▽ expired ✕ deleted ✖ lost/evicted ◆ fault | write (red: stale)</span>";
  return out + "</p>\n";
}

std::string counterexample_section(const Comparison& comparison, const Counterexample& example) {
  const std::string anchor = anchor_of(example.variant, example.family, example.seed);
  const std::string title = fmt::format("{} under {}, seed {}", example.variant,
                                        family_title(comparison, example.family), example.seed);
  std::string out = fmt::format("<section class=\"counterexample\" id=\"{}\">\n<h3>{}</h3>\n<ul class=\"violations\">\n",
                                markup_escape(anchor), markup_escape(title));
  for (const properties::Verdict& verdict : example.violations) {
    out += fmt::format("<li><strong>{}</strong>: {}<br><span class=\"cause\">{}</span></li>\n",
                       markup_escape(property_title(verdict.property)), markup_escape(verdict.summary),
                       markup_escape(verdict.cause));
  }
  out += "</ul>\n";
  out += timeline_svg(example.timeline, "svg-" + anchor, title);
  out += "<pre class=\"replay\">" + markup_escape(example.replay_command) + "</pre>\n</section>\n";
  return out;
}

}  // namespace

std::string report_html(const Comparison& comparison) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                    "<title>lockcheck: lock variants × faults</title>\n<style>" +
                    std::string(kStyle) + owner_colours_css() + "</style>\n</head>\n<body>\n<h1>Lock variants × faults</h1>\n";
  out += fmt::format(
      "<p>Generated by <code>{}</code> on the <code>{}</code> backend, {} seed(s) per cell. ✗ k/N: the property broke "
      "in k of N runs (the link opens the first counterexample below); ✓ held in every run, each of which could "
      "judge it; ✓ k/N: held in the k of N runs that could judge it (the other runs could not tell); – not "
      "exercised (no run could tell); ◇ k/N: a non-gating diagnostic in k of N runs (listed under "
      "<a href=\"#diagnostics\">Diagnostics</a>; it never changes the ✓ or ✗).</p>\n",
      markup_escape(comparison.command), markup_escape(comparison.backend), comparison.seeds.size());

  for (const std::string_view level : kExclusionLevels) {
    const std::string property(level);
    out += fmt::format("<h2 id=\"level-{}\">{}</h2>\n", property, markup_escape(property_title(property)));
    out += matrix_table(comparison, property, [&](const Cell* cell) { return level_td(cell, property); });
  }
  const std::vector<std::string> others = other_properties(comparison);
  out += "<h2 id=\"other-properties\">Other properties</h2>\n<p>Broken ones are listed; ✓: none broke, and every run "
         "judged each exercised one; ✓ <em>property</em> k/N: none broke, but only k of the N runs could judge that "
         "property; – none exercised.</p>\n";
  out += matrix_table(comparison, "other", [&](const Cell* cell) { return others_td(cell, others); });
  out += diagnostics_section(comparison);
  out += "<h2 id=\"workloads\">Workload per variant</h2>\n<p>What each variant's clients do in every cell of its "
         "row, before the column's fault family adds its faults.</p>\n" + workload_table(comparison);
  out += "<h2 id=\"progress\">" + progress_heading(comparison) + "</h2>\n" + progress_table(comparison);

  out += "<h2 id=\"fault-families\">Fault families</h2>\n<dl>\n";
  for (const FamilyInfo& family : comparison.families) {
    out += fmt::format("<dt><code>{}</code> {}</dt><dd>{}</dd>\n", markup_escape(family.id),
                       markup_escape(family.title), markup_escape(family.description));
  }
  out += "</dl>\n";
  if (!comparison.notes.empty()) {
    out += "<h2 id=\"notes\">Notes</h2>\n<ul>\n";
    for (const std::string& note : comparison.notes) out += "<li>" + markup_escape(note) + "</li>\n";
    out += "</ul>\n";
  }

  out += fmt::format("<h2 id=\"counterexamples\">Counterexamples ({})</h2>\n", comparison.counterexamples.size());
  out += "<p>One lane per client and per node, over the stretch of true time around the violation; hover for "
         "details.</p>\n" + legend();
  for (const Counterexample& example : comparison.counterexamples) out += counterexample_section(comparison, example);
  return out + "</body>\n</html>\n";
}

}  // namespace lockcheck::reports
