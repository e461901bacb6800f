#pragma once
// What a node's clock read at a true time, from the history alone: each server line anchors its node's clock
// (its node_time_ms at its t), and the clock faults after it move it (a jump steps it, a drift sets its rate).
// A node with no line yet (a replica: replicas record no key events) reads as the first line of an unfaulted
// node says the clocks started, moved by its own clock faults since. Exact under jumps and drifts as the faults
// name them. Fed the history in order.
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "history.hpp"

namespace lockcheck::properties {

class NodeClocks {
 public:
  void on(const ServerEvent& line);
  void on(const FaultEvent& fault);
  // The node's clock at true time t_us (not before its last line), in ms; nullopt while nothing says where the
  // clocks stand (no line of an unfaulted node yet, and none of this node).
  std::optional<double> read_ms(std::int64_t node, std::int64_t t_us) const;
  // The least the node's clock read in [from_us, to_us]: at from_us, or just after a change in between (a clock
  // that steps back reads less after its jump).
  std::optional<double> least_read_ms(std::int64_t node, std::int64_t from_us, std::int64_t to_us) const;

 private:
  struct Change {
    std::int64_t t_us = 0;
    bool jump = false;
    std::int64_t delta_us = 0;   // a jump's step
    std::int64_t drift_ppm = 0;  // a drift's new rate
  };
  struct Clock {
    std::optional<std::pair<std::int64_t, double>> anchor;  // (t_us, node_ms) of its last line
    std::int64_t anchor_drift_ppm = 0;  // the rate in force at the anchor
    std::int64_t drift_ppm = 0;         // the rate in force after every change seen
    std::vector<Change> changes;        // since the anchor, or since the start
  };

  std::optional<double> start_ms_;  // every clock's reading at true time 0
  std::map<std::int64_t, Clock> clocks_;
};

}  // namespace lockcheck::properties
