#pragma once
// One Nemesis, two backends (Jepsen's split: the nemesis only injects; clients, generator and checkers are
// joined to it by the history alone). The simulator's World and the real backend's Run each implement this
// interface; apply_fault() is the one dispatcher that validates a fault, composes its history line and calls
// the backend. A backend writes the line (FaultLine::write) at the moment the fault takes effect, and not at
// all when it does not apply (pausing a paused process, restarting a live one), so the history holds only
// faults that happened.
#include <cstdint>

#include "model/history.hpp"
#include "model/fault.hpp"

namespace lockcheck::sim {

class Nemesis;

// The history line of one fault: {"fault": kind, the kind's fields...}, composed by the dispatcher.
class FaultLine {
 public:
  FaultLine(Nemesis& nemesis, Json line) : nemesis_(nemesis), line_(std::move(line)) {}
  // Writes the line now, with `extra` fields after the dispatcher's (what only the backend knows, such as
  // the master a failover fenced off).
  void write(const Json& extra = Json::object());
  // A backend that carries the fault out as another event writes that event's line instead (the real
  // backend's Sentinel chooses the replica itself: "sentinel_failover").
  void write_as(FaultFollowUp event, const Json& fields);
  bool written() const { return written_; }

 private:
  Nemesis& nemesis_;
  Json line_;
  bool written_ = false;
};

class Nemesis {
 public:
  virtual ~Nemesis() = default;

  virtual int process_count() const = 0;
  virtual int node_count() const = 0;
  // Appends a fault line to the history at the backend's current time. Follow-up events of a fault
  // (resume, slot_migrated, rejoin, a failover by the sentinels) come through here too, built by
  // fault_lines.hpp.
  virtual void write_fault_line(Json line) = 0;

  // Carries `fault` out, writing `line` when it takes effect. Each backend switches over the kind with every
  // kind a case (no default), so the compiler names both backends for a new kind.
  virtual void carry_out(const FaultSpec& fault, FaultLine& line) = 0;
};

// Validates `fault` against the nemesis's processes and nodes (std::invalid_argument naming the fault),
// then has the backend carry it out. Returns whether a line was written (the fault took effect).
bool apply_fault(const FaultSpec& fault, Nemesis& nemesis);

}  // namespace lockcheck::sim
