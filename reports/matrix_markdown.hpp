#pragma once
// matrix.md: variants as rows, fault families as columns; one table per level of mutual exclusion, one for
// the other properties, the progress figures per variant, and what each fault family injects. Every broken
// cell links to its counterexample's timeline in report.html (same directory).
#include <string>

#include "comparison.hpp"

namespace lockcheck::reports {

std::string matrix_markdown(const Comparison& comparison, const std::string& report_html_name = "report.html");

}  // namespace lockcheck::reports
