#pragma once
// report.html: one self-contained page (inline CSS, inline SVG, no scripts, nothing fetched) with the
// matrix tables and, per counterexample, its timeline, the verdicts it shows and the command that replays it.
#include <string>

#include "comparison.hpp"

namespace lockcheck::reports {

std::string report_html(const Comparison& comparison);

}  // namespace lockcheck::reports
