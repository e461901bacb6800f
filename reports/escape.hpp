#pragma once
// Escaping for the HTML, SVG and XML the writers produce: every text that comes from a history, a verdict
// or the user goes through here.
#include <string>
#include <string_view>

namespace lockcheck::reports {

// & < > " ' as entities; safe in element content and in double- or single-quoted attributes.
std::string markup_escape(std::string_view text);

// | and newlines made harmless inside a Markdown table cell.
std::string markdown_cell_escape(std::string_view text);

}  // namespace lockcheck::reports
