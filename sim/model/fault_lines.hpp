#pragma once
// The history lines of a fault's follow-up events, spelled in one place: the checkers, the reports and
// explore's marks read them (sim/README.md lists the schema).
#include <cstdint>

#include "model/history.hpp"

namespace lockcheck::sim::fault_lines {

Json resume(int process);
Json slot_migrated(int node, int slot);
// A replica promoted by the cluster's majority or the sentinels (`by`), not by a scheduled fault.
// `from_serving`: the old master is alive and still serves its side until it rejoins.
Json failover_by(int node, int from, const char* by, bool from_serving);
Json rejoin(int node, int master);

}  // namespace lockcheck::sim::fault_lines
