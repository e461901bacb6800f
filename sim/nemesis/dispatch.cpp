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

// The line every backend writes for `fault`: its row's line fields, in order. A null field is the backend's to
// fill in at write() (what only it knows); its place in the line is fixed here, so both backends' lines read
// the same.
Json line_of(const FaultSpec& fault) {
  Json line{{"fault", std::string(to_string(fault.kind))}};
  for (const LineField field : fault_row(fault.kind).line) {
    switch (field) {
      case LineField::none: return line;
      case LineField::process: line["process"] = fault.process; break;
      case LineField::node: line["node"] = fault.node; break;
      case LineField::duration_us: line["duration_us"] = fault.duration_us; break;
      case LineField::delay_us: line["delay_us"] = fault.duration_us; break;
      case LineField::delta_us: line["delta_us"] = fault.delta_us; break;
      case LineField::drift_ppm: line["drift_ppm"] = fault.drift_ppm; break;
      case LineField::mode: line["mode"] = std::string(to_string(fault.mode)); break;
      case LineField::from: line["from"] = nullptr; break;
      case LineField::slot: line["slot"] = nullptr; break;
      case LineField::loss_ppm: line["request_ppm"] = fault.request_loss_ppm, line["reply_ppm"] = fault.reply_loss_ppm; break;
      case LineField::evict_target:
        if (fault.evict_target != EvictTarget::any) line["target"] = std::string(to_string(fault.evict_target));
        break;
    }
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

void FaultLine::write_as(FaultFollowUp event, const Json& fields) {
  LOCKCHECK_ASSERT(!written_);
  Json line{{"fault", std::string(to_string(event))}};
  for (const auto& [key, value] : fields.items()) line[key] = value;
  written_ = true;
  nemesis_.write_fault_line(std::move(line));
}

bool apply_fault(const FaultSpec& fault, Nemesis& nemesis) {
  check_targets(fault, nemesis);
  FaultLine line(nemesis, line_of(fault));
  nemesis.carry_out(fault, line);
  return line.written();
}

}  // namespace lockcheck::sim
