#pragma once
// A scenario as a file: what `lockcheck explore` hands back, so that `lockcheck run` reproduces a find and
// keeps it as a regression test. Writes every setting that differs from RunConfig's defaults, in the
// units the reader takes; explore re-reads each file it writes and re-runs it before trusting it.
#include <string>

#include "scenario/scenario.hpp"

namespace lockcheck::sim {

// Throws std::invalid_argument for a setting the file format cannot state exactly (a duration that is no
// whole number of milliseconds where the format takes milliseconds).
std::string write_scenario(const Scenario& scenario);

}  // namespace lockcheck::sim
