#pragma once
// A counterexample's timeline, Jepsen style: one lane per client and per node over a window of true time
// around the violation. Built from a history (JSON Lines, parsed by properties/history.hpp) and the verdicts
// that flagged it; drawn by timeline_svg.hpp. Kept separate from the drawing so tests can check what is
// shown without parsing SVG.
#include <cstdint>
#include <string>
#include <vector>

#include "properties/history.hpp"
#include "properties/verdict.hpp"

namespace lockcheck::reports {

// Something that lasts on a lane. kind: "hold" (acquire ok -> release invoke or crash; "read-hold" for a
// shared acquisition of a read-write lock), "validity" (what the
// client believed: acquire or renew ok -> valid_until), "instance" (a key on a node: created -> gone),
// "pause", "crash", "partition", "down" (a node crashed until its restart).
struct Span {
  std::int64_t from_us = 0;
  std::int64_t to_us = 0;
  std::string kind;
  std::int64_t owner = -1;  // the process holding it (hold, validity, instance), for its colour
  std::string label;        // a short text for the tooltip
};

// Something that happens at one instant. kind: a server event name (created, expired, deleted, lost,
// evicted, overwritten), "write" / "stale-write" (the resource), or a fault name.
struct Mark {
  std::int64_t t_us = 0;
  std::string kind;
  std::string label;
  bool witness = false;  // a history line a verdict named as evidence
};

struct Lane {
  std::string id;     // "client-0", "node-1"
  std::string label;  // "client 0", "node 1"
  std::vector<Span> spans;
  std::vector<Mark> marks;
};

// The violating stretch of true time (e.g. two clients inside their validity at once).
struct Highlight {
  std::int64_t from_us = 0;
  std::int64_t to_us = 0;
  std::string property;
};

struct Timeline {
  std::int64_t from_us = 0;  // the window shown
  std::int64_t to_us = 0;
  std::vector<Lane> lanes;            // clients first, then nodes
  std::vector<Mark> global_marks;     // faults that touch everyone (loss, heal)
  std::vector<Highlight> highlights;  // one per violated verdict
};

// The window spans the witnesses of every violated verdict, padded by one TTL before and half a TTL after
// (clipped to the run); spans are clipped to it and marks outside it dropped.
Timeline build_timeline(const properties::History& history, const std::vector<properties::Verdict>& violated);

}  // namespace lockcheck::reports
