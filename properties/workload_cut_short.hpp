#pragma once
// A client that stopped on a server error (an op with "error":true: CROSSSLOT, a script error, ...) did
// nothing afterwards, so the history cannot show what it would have done: a `holds` might only mean that
// the workload died at the fault. Every `holds` verdict of such a history becomes `unknown`, saying how many
// clients stopped, the first error, and how many acquisitions happened after it (a gate expecting holds
// then fails with that line). `violated` stays violated: what went wrong before the stop still went wrong.
#include <vector>

#include "history.hpp"
#include "verdict.hpp"

namespace lockcheck::properties {

void mark_cut_short(const History& history, std::vector<Verdict>& verdicts);

}  // namespace lockcheck::properties
