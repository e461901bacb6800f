#pragma once
// The verdicts of `lockcheck run` and `lockcheck judge` as JSON (--json FILE), for scripts that gate on exact
// counts (tools/judge/track/track.py): per scenario its seeds, per property how many runs held, were violated
// and could not judge it, and what makes the run unusable (hung clients, hollow verdicts, nondeterminism).
#include <string>
#include <vector>

#include "run_engine.hpp"

namespace lockcheck::cli {

std::string json_report(const std::vector<ScenarioReport>& reports);

}  // namespace lockcheck::cli
