#pragma once
// The workload (Jepsen's generator), written once for every kind of client: acquire, read the resource,
// (every nest_every-th time) a nested acquire, hold, write it back (carefully, with check_lease_before_write),
// release, think; until the run ends or a client has made max_acquires_per_client rounds. Readers of a
// read-write lock, threads_per_process sharing one lock object, fencing tokens at the resource and the stop on
// a RedisError are all here. It is a coroutine over the client's seams (workload_client.hpp): the simulator
// runs it on virtual time; the redis backend's worker drives it to completion with run_sync, since real seams
// complete synchronously, as the library's Mutex runs its coroutine core.
#include <cstdint>
#include <string_view>

#include "lockcheck/task.hpp"
#include "workload/workload_client.hpp"
#include "model/workload_config.hpp"

namespace lockcheck::sim {

// Runs `workload` on `client` until `end_us` (the client's OpLog::now_us()). `variant` is the catalogue id:
// with threads_per_process > 1 its public type (lockcheck/public_types.hpp) says how the threads share the
// lock; a variant without one is refused with std::invalid_argument. What a thread throws other than a
// RedisError (an internal error) is rethrown once every thread has finished.
Task<void> run_workload(const WorkloadConfig& workload, std::string_view variant, std::int64_t end_us,
                        WorkloadClient& client);

}  // namespace lockcheck::sim
