#include "model/fault_lines.hpp"

namespace lockcheck::sim::fault_lines {

Json resume(int process) { return Json{{"fault", "resume"}, {"process", process}}; }

Json slot_migrated(int node, int slot) { return Json{{"fault", "slot_migrated"}, {"node", node}, {"slot", slot}}; }

Json failover_by(int node, int from, const char* by, bool from_serving) {
  Json line{{"fault", "failover"}, {"node", node}, {"from", from}, {"by", by}};
  if (from_serving) line["from_serving"] = true;
  return line;
}

Json rejoin(int node, int master) { return Json{{"fault", "rejoin"}, {"node", node}, {"master", master}}; }

}  // namespace lockcheck::sim::fault_lines
