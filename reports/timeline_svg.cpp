#include "timeline_svg.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "escape.hpp"

namespace lockcheck::reports {
namespace {

constexpr std::int64_t kWidth = 960;
constexpr std::int64_t kLabelWidth = 80;
constexpr std::int64_t kRightMargin = 12;
constexpr std::int64_t kAxisHeight = 24;
constexpr std::int64_t kLaneHeight = 30;

// The highlight's colour tells the level: server, client, resource, or another property.
std::string violation_class(const std::string& property) {
  if (property == "mutual_exclusion_server") return "server";
  if (property == "mutual_exclusion_client") return "client";
  if (property == "mutual_exclusion_resource") return "resource";
  return "other";
}

std::string owner_class(std::int64_t owner) { return owner < 0 ? "" : fmt::format(" o{}", owner % kOwnerColours); }

// Coordinates in tenths of a pixel, integer arithmetic only: the same bytes on every machine.
struct Scale {
  std::int64_t from_us, to_us;
  std::int64_t x_tenths(std::int64_t t_us) const {
    const std::int64_t span = std::max<std::int64_t>(1, to_us - from_us);
    const std::int64_t clamped = std::clamp(t_us, from_us, to_us);
    return kLabelWidth * 10 + (clamped - from_us) * (kWidth - kLabelWidth - kRightMargin) * 10 / span;
  }
};

std::string px(std::int64_t tenths) {
  return tenths % 10 == 0 ? fmt::format("{}", tenths / 10) : fmt::format("{}.{}", tenths / 10, tenths % 10);
}

std::string tooltip(const std::string& text) { return "<title>" + markup_escape(text) + "</title>"; }

std::string time_text(std::int64_t t_us) { return fmt::format("t={}.{:06} s", t_us / 1000000, t_us % 1000000); }

// A round tick step (1, 2 or 5 times a power of ten, at least 1 ms, in µs) giving at most ten ticks.
std::int64_t tick_step_us(std::int64_t span_us) {
  std::int64_t power = 1000;
  for (int decade = 0; decade < 12; ++decade, power *= 10) {
    for (const std::int64_t mantissa : {1, 2, 5}) {
      if (span_us / (mantissa * power) <= 10) return mantissa * power;
    }
  }
  return power;
}

std::string axis(const Scale& scale, std::int64_t height) {
  std::string out = "<g class=\"axis\">";
  const std::int64_t step = tick_step_us(scale.to_us - scale.from_us);
  const std::int64_t first = (scale.from_us + step - 1) / step * step;
  for (std::int64_t t = first; t <= scale.to_us; t += step) {
    const std::string x = px(scale.x_tenths(t));
    out += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" class=\"tick\"/>", x, kAxisHeight - 4, height);
    out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"tick-label\">{} ms</text>", x, kAxisHeight - 8, t / 1000);
  }
  return out + "</g>";
}

// Routine shapes (validity bars, writes, created / deleted marks) carry no tooltip: a run draws thousands of
// them, and the hold or key instance they belong to already says it.
std::string span_element(const Span& span, const Scale& scale, std::int64_t lane_top) {
  const std::int64_t x = scale.x_tenths(span.from_us);
  const std::int64_t width = std::max<std::int64_t>(5, scale.x_tenths(span.to_us) - x);
  std::int64_t y = lane_top, height = kLaneHeight;
  std::string owner;
  if (span.kind == "hold" || span.kind == "read-hold") {
    y = lane_top + 5, height = 12, owner = owner_class(span.owner);
  } else if (span.kind == "validity") {
    y = lane_top + 20, height = 5, owner = owner_class(span.owner);
  } else if (span.kind == "instance") {
    y = lane_top + 7, height = 16, owner = owner_class(span.owner);
  }
  const std::string shape = fmt::format("<rect class=\"{}{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"",
                                        markup_escape(span.kind), owner, px(x), y, px(width), height);
  if (span.kind == "validity") return shape + "/>";
  return shape + ">" + tooltip(fmt::format("{}: {} .. {}", span.label, time_text(span.from_us), time_text(span.to_us))) +
         "</rect>";
}

std::string mark_element(const Mark& mark, const Scale& scale, std::int64_t lane_top) {
  const std::string x = px(scale.x_tenths(mark.t_us));
  const std::int64_t middle = lane_top + kLaneHeight / 2;
  const std::string title = tooltip(fmt::format("{}: {}", time_text(mark.t_us), mark.label));
  const std::string kind = markup_escape(mark.kind);
  if (mark.witness) {
    return fmt::format("<circle class=\"witness\" cx=\"{}\" cy=\"{}\" r=\"7\">{}</circle>", x, middle, title);
  }
  if (mark.kind == "write") {
    return fmt::format("<line class=\"write\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>", x, lane_top + 2, lane_top + 27);
  }
  if (mark.kind == "stale-write" || mark.kind == "rejected-write") {
    return fmt::format("<line class=\"{0}\" x1=\"{2}\" y1=\"{3}\" x2=\"{2}\" y2=\"{4}\">{1}</line>", kind, title, x,
                       lane_top + 2, lane_top + 27);
  }
  // Key events and faults: a small glyph (it tells the kind at a glance, the title the rest).
  const bool routine = mark.kind == "created" || mark.kind == "deleted";
  std::string glyph = "◆";
  if (mark.kind == "created") glyph = "▲";
  if (mark.kind == "overwritten") glyph = "▼";
  if (mark.kind == "expired") glyph = "▽";
  if (mark.kind == "deleted") glyph = "✕";
  if (mark.kind == "lost" || mark.kind == "evicted") glyph = "✖";
  return fmt::format("<text class=\"mark {}\" x=\"{}\" y=\"{}\">{}{}</text>", kind, x, lane_top + 12, glyph,
                     routine ? "" : title);
}

}  // namespace

std::string owner_colour(std::int64_t owner) {
  static constexpr const char* kPalette[kOwnerColours] = {"#4e79a7", "#f28e2b", "#59a14f", "#b07aa1",
                                                         "#76b7b2", "#edc948", "#9c755f", "#e15759"};
  if (owner < 0) return "#999999";
  return kPalette[owner % kOwnerColours];
}

std::string owner_colours_css() {
  std::string css;
  for (std::int64_t owner = 0; owner < kOwnerColours; ++owner) {
    css += fmt::format("svg.timeline .o{} {{ fill: {}; }}\n", owner, owner_colour(owner));
  }
  return css;
}

std::string timeline_svg(const Timeline& timeline, const std::string& id, const std::string& title) {
  const Scale scale{timeline.from_us, timeline.to_us};
  const auto lanes = static_cast<std::int64_t>(timeline.lanes.size());
  const std::int64_t height = kAxisHeight + lanes * kLaneHeight + 4;
  std::string out = fmt::format(
      "<svg class=\"timeline\" id=\"{}\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "viewBox=\"0 0 {} {}\" data-lanes=\"{}\" role=\"img\" aria-label=\"{}\">\n",
      markup_escape(id), kWidth, height, kWidth, height, lanes, markup_escape(title));
  out += axis(scale, height) + "\n";
  for (std::int64_t k = 0; k < lanes; ++k) {
    const Lane& lane = timeline.lanes[static_cast<std::size_t>(k)];
    const std::int64_t top = kAxisHeight + k * kLaneHeight;
    out += fmt::format("<g class=\"lane\" data-lane=\"{}\">", markup_escape(lane.id));
    out += fmt::format("<rect class=\"lane-bg{}\" x=\"0\" y=\"{}\" width=\"{}\" height=\"{}\"/>", k % 2 ? " odd" : "",
                       top, kWidth, kLaneHeight);
    out += fmt::format("<text class=\"lane-label\" x=\"4\" y=\"{}\">{}</text>", top + 19, markup_escape(lane.label));
    // Shading first, then what it shades, so faults sit behind holds and key instances.
    for (const bool shading : {true, false}) {
      for (const Span& span : lane.spans) {
        const bool is_shading =
            span.kind != "hold" && span.kind != "read-hold" && span.kind != "validity" && span.kind != "instance";
        if (is_shading == shading) out += span_element(span, scale, top);
      }
    }
    for (const Mark& mark : lane.marks) out += mark_element(mark, scale, top);
    out += "</g>\n";
  }
  for (const Mark& mark : timeline.global_marks) {
    const std::string x = px(scale.x_tenths(mark.t_us));
    out += fmt::format("<line class=\"global-fault\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\">{3}</line>\n", x,
                       kAxisHeight, height, tooltip(fmt::format("{}: {}", time_text(mark.t_us), mark.label)));
  }
  for (const Highlight& highlight : timeline.highlights) {
    const std::int64_t x = scale.x_tenths(highlight.from_us);
    const std::int64_t width = std::max<std::int64_t>(40, scale.x_tenths(highlight.to_us) - x);
    out += fmt::format(
        "<rect class=\"violation {}\" data-property=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\">{}</rect>\n",
        violation_class(highlight.property), markup_escape(highlight.property), px(x), kAxisHeight, px(width), lanes * kLaneHeight,
        tooltip(fmt::format("{} violated: {} .. {}", highlight.property, time_text(highlight.from_us),
                            time_text(highlight.to_us))));
  }
  return out + "</svg>\n";
}

}  // namespace lockcheck::reports
