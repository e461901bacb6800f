#include "node_clocks.hpp"

#include <algorithm>
#include <tuple>

namespace lockcheck::properties {
namespace {

double elapsed_ms(std::int64_t from_us, std::int64_t to_us, std::int64_t drift_ppm) {
  return static_cast<double>(to_us - from_us) / 1000.0 * (1.0 + static_cast<double>(drift_ppm) / 1'000'000.0);
}

}  // namespace

void NodeClocks::on(const ServerEvent& line) {
  Clock& clock = clocks_[line.node];
  if (!start_ms_ && !clock.anchor && clock.changes.empty()) {
    start_ms_ = static_cast<double>(line.node_time_ms) - static_cast<double>(line.t) / 1000.0;
  }
  clock.anchor = {line.t, static_cast<double>(line.node_time_ms)};
  clock.anchor_drift_ppm = clock.drift_ppm;
  clock.changes.clear();
}

void NodeClocks::on(const FaultEvent& fault) {
  const bool jump = fault.is(sim::FaultKind::node_clock_jump);
  if (!jump && !fault.is(sim::FaultKind::node_clock_drift)) return;
  Clock& clock = clocks_[fault.node];
  clock.changes.push_back(Change{fault.t, jump, fault.delta_us, fault.drift_ppm});
  if (!jump) clock.drift_ppm = fault.drift_ppm;
}

std::optional<double> NodeClocks::read_ms(std::int64_t node, std::int64_t t_us) const {
  static const Clock kUntouched;
  const auto it = clocks_.find(node);
  const Clock& clock = it != clocks_.end() ? it->second : kUntouched;
  std::int64_t at_us = 0;
  double node_ms = 0;
  std::int64_t drift_ppm = 0;
  if (clock.anchor) {
    std::tie(at_us, node_ms) = *clock.anchor;
    drift_ppm = clock.anchor_drift_ppm;
  } else if (start_ms_) {
    node_ms = *start_ms_;
  } else {
    return std::nullopt;
  }
  for (const Change& change : clock.changes) {
    if (change.t_us > t_us) break;
    node_ms += elapsed_ms(at_us, change.t_us, drift_ppm);
    at_us = change.t_us;
    if (change.jump) {
      node_ms += static_cast<double>(change.delta_us) / 1000.0;
    } else {
      drift_ppm = change.drift_ppm;
    }
  }
  return node_ms + elapsed_ms(at_us, t_us, drift_ppm);
}

std::optional<double> NodeClocks::least_read_ms(std::int64_t node, std::int64_t from_us, std::int64_t to_us) const {
  std::optional<double> least = read_ms(node, from_us);
  const auto it = clocks_.find(node);
  if (!least || it == clocks_.end()) return least;
  for (const Change& change : it->second.changes) {
    if (change.t_us > from_us && change.t_us <= to_us) least = std::min(*least, *read_ms(node, change.t_us));
  }
  return least;
}

}  // namespace lockcheck::properties
