#pragma once
// What the lock did that made a find possible, told from the run's history, so that a user need not replay it
// and read JSON lines: the operation at the violation and what its script or command did to the key (what the
// key held before and after it, and what the operation then answered), a reply that was lost and the retry
// that followed it, and the clock faults a holder's belief rested on. One sentence each.
#include <string>
#include <vector>

#include "properties/history.hpp"
#include "properties/verdict.hpp"

namespace lockcheck::explore {

// The user's scripts are named as the history's meta line names them (script_files).
std::vector<std::string> explain_find(const properties::History& history, const properties::Verdict& verdict);

}  // namespace lockcheck::explore
