#include "model/fault_lines.hpp"

#include <string>

#include "model/fault.hpp"

namespace lockcheck::sim::fault_lines {

Json resume(int process) { return Json{{"fault", std::string(to_string(FaultFollowUp::resume))}, {"process", process}}; }

Json slot_migrated(int node, int slot) {
  return Json{{"fault", std::string(to_string(FaultFollowUp::slot_migrated))}, {"node", node}, {"slot", slot}};
}

Json failover_by(int node, int from, const char* by, bool from_serving) {
  Json line{{"fault", std::string(to_string(FaultKind::failover))}, {"node", node}, {"from", from}, {"by", by}};
  if (from_serving) line["from_serving"] = true;
  return line;
}

Json rejoin(int node, int master) {
  return Json{{"fault", std::string(to_string(FaultFollowUp::rejoin))}, {"node", node}, {"master", master}};
}

}  // namespace lockcheck::sim::fault_lines
