#pragma once
// `lockcheck compare`: every chosen variant under every chosen fault family over N seeds, through the same
// run engine as `lockcheck run`, then the reports (reports/): matrix.md, report.html, results.json, JUnit.
// With --shard i/n it runs every n-th cell only and writes a shard file instead, for `lockcheck merge`.
#include <string>

#include "compare_plan.hpp"

namespace lockcheck::cli {

struct CompareOptions {
  compare::CompareSelection selection;
  std::string backend = "mock";
  std::string server;       // with the redis backend: "serve" runs every node as `lockcheck serve`; "" redis-server
  std::string out_dir;      // empty: print matrix.md to standard output, write nothing
  std::string junit_path;   // empty: no JUnit XML
  std::string history_dir;  // write every run's history here when set
  unsigned jobs = 1;
  unsigned shard_index = 0;  // --shard i/n: run the cells whose index % n == i, write only the shard's file
  unsigned shard_count = 1;  // 1: the whole comparison, rendered
};

// 0 when the comparison ran (violations are findings, not failures); 3 on nondeterminism or when a cell could
// not run (the reports are still written, with a note per such cell). Throws
// std::invalid_argument for bad usage (unknown ids, an unknown backend, --shard without --out, --server serve
// without the redis backend).
int command_compare(const CompareOptions& options);

}  // namespace lockcheck::cli
