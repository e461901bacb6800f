#pragma once
// A history file that stops before its run's end (no closing {"kind":"end"} line: the simulator hit its event
// limit, or the file was cut off in a copy) shows only part of the run. Judged as it is, the part never
// written would read as "nothing happened", and a `holds` would be a pass on missing evidence.
#include <string>

#include "history.hpp"

namespace lockcheck::properties {

// "" when the history was closed (its writer reached the run's end); else why it cannot be judged.
std::string history_cut_short(const History& history);

}  // namespace lockcheck::properties
