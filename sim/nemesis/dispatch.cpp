// The one fault dispatcher: validation, the line's shape, and the call into the backend.
#include <fmt/format.h>

#include <stdexcept>

#include "lockcheck/assert.hpp"
#include "nemesis/nemesis.hpp"

namespace lockcheck::sim {
namespace {

void check_targets(const FaultSpec& fault, const Nemesis& nemesis) {
  const FaultFields fields = fields_of(fault.kind);
  if (fields.process && (fault.process < 0 || fault.process >= nemesis.process_count())) {
    throw std::invalid_argument(
        fmt::format("fault '{}' names process {}, which does not exist", to_string(fault.kind), fault.process));
  }
  if (fields.node && (fault.node < 0 || fault.node >= nemesis.node_count())) {
    throw std::invalid_argument(
        fmt::format("fault '{}' names node {}, which does not exist", to_string(fault.kind), fault.node));
  }
}

// The line every backend writes for `fault`. A null field is the backend's to fill in at write() (what
// only it knows); its place in the line is fixed here, so both backends' lines read the same.
Json line_of(const FaultSpec& fault) {
  Json line{{"fault", std::string(to_string(fault.kind))}};
  switch (fault.kind) {
    case FaultKind::pause: line["process"] = fault.process, line["duration_us"] = fault.duration_us; break;
    case FaultKind::crash:
    case FaultKind::restart: line["process"] = fault.process; break;
    case FaultKind::client_clock_jump: line["process"] = fault.process, line["delta_us"] = fault.delta_us; break;
    case FaultKind::client_clock_drift: line["process"] = fault.process, line["drift_ppm"] = fault.drift_ppm; break;
    case FaultKind::node_clock_jump: line["node"] = fault.node, line["delta_us"] = fault.delta_us; break;
    case FaultKind::node_clock_drift: line["node"] = fault.node, line["drift_ppm"] = fault.drift_ppm; break;
    case FaultKind::node_crash:
    case FaultKind::replica_partition: line["node"] = fault.node; break;
    case FaultKind::node_restart: line["node"] = fault.node, line["mode"] = std::string(to_string(fault.mode)); break;
    case FaultKind::failover: line["node"] = fault.node, line["from"] = nullptr; break;
    case FaultKind::partition: line["process"] = fault.process, line["node"] = fault.node; break;
    case FaultKind::heal: break;
    case FaultKind::loss: line["request_ppm"] = fault.request_loss_ppm, line["reply_ppm"] = fault.reply_loss_ppm; break;
    case FaultKind::slow_node: line["node"] = fault.node, line["delay_us"] = fault.duration_us; break;
    case FaultKind::evict:
      line["node"] = fault.node;
      if (fault.evict_target != EvictTarget::any) line["target"] = std::string(to_string(fault.evict_target));
      break;
    case FaultKind::slot_migration:
      line["node"] = fault.node, line["from"] = nullptr, line["slot"] = nullptr, line["duration_us"] = fault.duration_us;
      break;
    case FaultKind::split_brain: line["node"] = fault.node, line["process"] = fault.process; break;
  }
  return line;
}

}  // namespace

void FaultLine::write(const Json& extra) {
  LOCKCHECK_ASSERT(!written_);
  for (const auto& [key, value] : extra.items()) line_[key] = value;
  for (const auto& [key, value] : line_.items()) LOCKCHECK_ASSERT(!value.is_null());
  written_ = true;
  nemesis_.write_fault_line(std::move(line_));
}

void FaultLine::write_as(const char* fault, const Json& fields) {
  LOCKCHECK_ASSERT(!written_);
  Json line{{"fault", fault}};
  for (const auto& [key, value] : fields.items()) line[key] = value;
  written_ = true;
  nemesis_.write_fault_line(std::move(line));
}

bool apply_fault(const FaultSpec& fault, Nemesis& nemesis) {
  check_targets(fault, nemesis);
  FaultLine line(nemesis, line_of(fault));
  switch (fault.kind) {
    case FaultKind::pause: nemesis.pause(fault, line); break;
    case FaultKind::crash: nemesis.crash(fault, line); break;
    case FaultKind::restart: nemesis.restart(fault, line); break;
    case FaultKind::client_clock_jump: nemesis.client_clock_jump(fault, line); break;
    case FaultKind::client_clock_drift: nemesis.client_clock_drift(fault, line); break;
    case FaultKind::node_clock_jump: nemesis.node_clock_jump(fault, line); break;
    case FaultKind::node_clock_drift: nemesis.node_clock_drift(fault, line); break;
    case FaultKind::node_crash: nemesis.node_crash(fault, line); break;
    case FaultKind::node_restart: nemesis.node_restart(fault, line); break;
    case FaultKind::failover: nemesis.failover(fault, line); break;
    case FaultKind::partition: nemesis.partition(fault, line); break;
    case FaultKind::heal: nemesis.heal(fault, line); break;
    case FaultKind::loss: nemesis.loss(fault, line); break;
    case FaultKind::slow_node: nemesis.slow_node(fault, line); break;
    case FaultKind::evict: nemesis.evict(fault, line); break;
    case FaultKind::replica_partition: nemesis.replica_partition(fault, line); break;
    case FaultKind::slot_migration: nemesis.slot_migration(fault, line); break;
    case FaultKind::split_brain: nemesis.split_brain(fault, line); break;
  }
  return line.written();
}

}  // namespace lockcheck::sim
