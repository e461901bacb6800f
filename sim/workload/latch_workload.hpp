#pragma once
// The workload of a count-down latch (a variant whose row counts_down: redisson-latch, latch), in place of the
// acquire / hold / release loop, which a latch has no use for. The run is cut into rounds of one latch each, on
// the run's true time (latch_round_us), so that a process that fell behind (a pause, a lost message, a restart)
// joins the round under way instead of re-arming one that is over. Every process arrives at its round's latch
// "<key>:<round>" think_min .. think_max into the round and sets it up (LatchAlgorithm::set_up). The first
// latch_count processes are its counters: each does its part (hold_min .. hold_max after think_max, so after every
// process arrived), counts down as "process-<id>", then awaits; the others await at once. An await
// waits at most wait_us. Op lines: f "count_down" (ok / fail / info, "result" counted | unreachable | unknown,
// "remaining") and f "await" (ok when it opened; fail with "result" timed_out | unreachable).
#include <cstdint>

#include "lockcheck/task.hpp"
#include "model/workload_config.hpp"
#include "workload/workload_client.hpp"

namespace lockcheck::sim {

// The length of one round: room for every counter's part and every awaiter's arrival, twice over.
std::int64_t latch_round_us(const WorkloadConfig& workload);

// Runs the rounds on `client`, whose lock() must be a LatchAlgorithm (std::invalid_argument otherwise), until
// `end_us` or max_acquires_per_client rounds.
Task<void> run_latch_workload(const WorkloadConfig& workload, std::int64_t end_us, WorkloadClient& client);

}  // namespace lockcheck::sim
