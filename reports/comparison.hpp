#pragma once
// The outcome of `lockcheck compare` as plain data: what every writer (Markdown, HTML, JSON, JUnit) reads.
// Ordering is part of the data (variants, families, properties in the order given), so writers that walk
// it produce the same bytes for the same comparison.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "properties/checkers.hpp"
#include "timeline.hpp"

namespace lockcheck::reports {

struct FamilyInfo {
  std::string id;
  std::string title;
  std::string description;
};

// What a variant's clients do in every cell of its row, before a fault family adds its faults: the plan's base
// configuration, disclosed beside the matrix because variants are not all exercised alike (nested acquires,
// reads, longer holds, more masters). Times in µs.
struct Workload {
  std::string variant;
  std::int64_t clients = 0;
  std::int64_t masters = 0;
  std::int64_t replicas = 0;      // in the base configuration (a family may add more)
  std::int64_t ttl_us = 0;
  std::int64_t hold_min_us = 0;   // inside the critical section, between the read and the write
  std::int64_t hold_max_us = 0;
  std::int64_t think_min_us = 0;  // between a release and the next acquire
  std::int64_t think_max_us = 0;
  std::int64_t wait_us = 0;       // how long one acquire may wait for the lock
  std::int64_t nest_every = 0;    // 0: never; N: every N-th acquisition is followed by a nested acquire
  std::int64_t readers_ppm = 0;   // share of acquisitions that are reads (shared), in parts per million
  bool fencing = false;           // the resource rejects writes with stale fencing tokens
  std::int64_t duration_us = 0;   // simulated time per run
  std::int64_t permits = 1;       // holders at once: above 1 only for a semaphore (last: positional inits keep)
};

// One property over the N runs of one cell.
struct PropertyResult {
  std::string property;
  std::int64_t runs = 0;
  std::int64_t violated = 0;
  std::int64_t unknown = 0;                        // runs that could not tell ("not exercised")
  std::int64_t judged() const { return runs - unknown; }  // runs that could tell: held or violated
  std::optional<std::uint64_t> first_violating_seed;
  properties::Verdict first_violation;             // of that seed
  // Non-gating findings a checker reported beside its verdict (properties::Diagnostic; e.g. a quorum lock's
  // per-node double grant): shown by every writer, never part of status_of, a cell's ✓/✗ or its JUnit outcome.
  std::int64_t runs_with_diagnostics = 0;
  std::optional<std::uint64_t> first_diagnostic_seed;
  std::string first_diagnostic_name;               // e.g. "per_node_double_grant"
  std::string first_diagnostic;                    // that seed's first diagnostic, in words
};

// One variant under one fault family.
struct Cell {
  std::string variant;
  std::string family;
  std::vector<PropertyResult> properties;  // in checker order
  properties::Progress progress;           // of the first seed's run
  std::int64_t duration_us = 0;            // simulated time per run, for rates
};

// One violating run, drawn: every property whose first violation was in this run links here.
struct Counterexample {
  std::string variant;
  std::string family;
  std::uint64_t seed = 0;
  std::vector<properties::Verdict> violations;  // the violated verdicts of this run, checker order
  std::string replay_command;
  Timeline timeline;
};

struct Comparison {
  std::string command;                      // how to regenerate this comparison, shown in the reports
  std::string backend = "mock";
  std::vector<std::uint64_t> seeds;
  std::vector<std::string> variants;        // rows
  std::vector<Workload> workloads;          // one per row, in row order
  std::vector<FamilyInfo> families;         // columns
  std::vector<std::string> notes;           // e.g. which variants were skipped and why
  std::vector<Cell> cells;                  // variant-major, in row and column order
  std::vector<Counterexample> counterexamples;
};

// The HTML id of a counterexample, used by report.html and the links in matrix.md.
std::string anchor_of(const std::string& variant, const std::string& family, std::uint64_t seed);

const Cell* find_cell(const Comparison& comparison, const std::string& variant, const std::string& family);
const Workload* find_workload(const Comparison& comparison, const std::string& variant);
const PropertyResult* find_property(const Cell& cell, const std::string& property);

}  // namespace lockcheck::reports
