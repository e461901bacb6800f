#pragma once
// The careful holder of the workload (WorkloadConfig::check_lease_before_write): before it writes the
// resource it asks its lease whether there is still time. Part of the one workload every kind of client runs
// (workload.hpp), so they all decide the same way.
#include <cstdint>
#include <string>

#include "model/prng.hpp"
#include "lockcheck/lease.hpp"
#include "model/workload_config.hpp"

namespace lockcheck::sim {

// Why a holder whose read the resource rejected (Fencing::reads_and_writes: a newer token has read or
// written since) does not write: it has no value to compute from. Any holder, careful or not.
inline constexpr const char* kReadRejected = "the resource rejected the read (a newer fencing token was seen)";

// Why a careful holder must not write now; empty when it may. Asks the library's own Lease (lost(),
// remaining() on the holder's clock, and a watchdog's loss signal), never a model of it. The write may take
// up to write_latency_max_us to land, so the lease must outlast that.
std::string careful_write_refusal(const WorkloadConfig& workload, const Lease& lease);

// The time from the decision to the write landing at the resource. Draws from `prng` only when
// write_latency_max_us is non-zero, so runs without a latency keep their draws.
std::int64_t draw_write_latency_us(const WorkloadConfig& workload, Prng& prng);

}  // namespace lockcheck::sim
