#pragma once
// How the workload's operations read in the history (sim/README.md): Jepsen's invoke / ok / fail / info lines
// with the process, the key, the process's local time and, with several threads per process, which thread.
#include <string>

#include "lockcheck/lease.hpp"
#include "workload/op_log.hpp"

namespace lockcheck::sim {

// An op line begun now, its fields up to "local"; `thread` > 0 adds "thread".
HistoryLine op_fields(OpLog& log, int process, const char* type, const char* f, const std::string& key, int thread = 0);

// What an acquire's ok line says of the lease: its token, its deadline in true and local time, its fencing
// token; and, when the acquire sent more than one attempt, how many (`attempts`: an earlier one may still land).
void add_lease(OpLog& log, HistoryLine& fields, const Lease& lease, std::uint32_t attempts = 1);

}  // namespace lockcheck::sim
