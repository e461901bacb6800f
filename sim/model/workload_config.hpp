#pragma once
// What a client process tries (the Jepsen generator's parameters): how it acquires, holds, writes the
// protected resource and releases. Apart from RunConfig so that the workload (workload/workload.hpp), which
// every kind of client runs, needs none of the simulator's configuration.
#include <cstdint>
#include <string>

namespace lockcheck::sim {

// What the protected resource checks of the fencing tokens it is shown (sim/core/resource.hpp).
enum class Fencing : std::uint8_t {
  off,               // no check: every write is accepted
  writes,            // a write whose token is below the highest the register has seen is rejected
  reads_and_writes,  // reads register their token too and are rejected the same way (Kleppmann's storage)
};
// "off", "writes", "reads-and-writes": the scenario files' and the history meta's spelling.
const char* to_string(Fencing fencing);

struct WorkloadConfig {
  std::string key = "lock";
  std::int64_t wait_us = 2000000;        // acquire wait budget
  std::int64_t hold_min_us = 10000;      // time inside the critical section (between read and write)
  std::int64_t hold_max_us = 50000;
  std::int64_t think_min_us = 1000;      // time between a release and the next acquire
  std::int64_t think_max_us = 20000;
  std::uint32_t max_acquires_per_client = 100000;
  Fencing fencing = Fencing::off;        // what the resource checks of fencing tokens
  // Nesting (for reentrant variants), off by default. Every `nest_every`-th successful acquire of a client
  // (1: every one) is followed by a nested acquire of the same key (with `nested_ttl_us`, or the lock's TTL
  // when 0), a hold of nested_hold_min_us .. nested_hold_max_us, and the inner release; then the outer hold,
  // write and release go on as usual. The inner hold is drawn from the workload PRNG only when nesting is on.
  std::uint32_t nest_every = 0;
  std::int64_t nested_ttl_us = 0;
  std::int64_t nested_hold_min_us = 1000;
  std::int64_t nested_hold_max_us = 10000;
  // Readers (for read-write variants), off by default. Each acquisition is a read with probability
  // readers_ppm / 1e6: acquire_shared, read the resource (no write), hold, release_shared; its op lines carry
  // "mode":"read". Drawn from the workload PRNG only when readers_ppm > 0. Reads are never nested.
  std::uint32_t readers_ppm = 0;
  // A careful holder, off by default (workload/careful_write.hpp). With check_lease_before_write, after the
  // hold the holder asks its lease (the library's lost() / remaining() on its own clock) and writes only when
  // more than write_latency_max_us is left; otherwise it skips the write. The write then takes
  // write_latency_min_us .. write_latency_max_us to land at the resource (a storage round trip), drawn from
  // the workload PRNG only when the maximum is non-zero; a pause can land in that await.
  bool check_lease_before_write = false;
  std::int64_t write_latency_min_us = 0;
  std::int64_t write_latency_max_us = 0;
  // Threads per client process, 1 by default. Above 1, the process's threads (coroutines) share ONE lock
  // object of the variant's public type (lockcheck/public_types.hpp: Mutex over `token`, ...), each an owner
  // of its own lease, as a service's threads share one Mutex; each runs this workload, and its op and resource
  // lines carry "thread": 1 .. N. Needs a variant with a public type; no nesting.
  std::uint32_t threads_per_process = 1;
  // The semaphore's size, for the variants that count permits (VariantRow::counts_permits): up to this many
  // processes hold at once. The loop above is the same for them; the histories' meta says "permits", so the
  // checkers judge permit_safety instead of mutual exclusion. 1 for every other variant.
  std::uint32_t permits = 1;
  // The latch's count, for the variants that count down (VariantRow::counts_down): processes 0 .. latch_count - 1
  // count each round's latch down, and every process awaits it (workload/latch_workload.hpp replaces the loop
  // above). The histories' meta says "latch", so the latch property judges them instead of the lock properties.
  std::uint32_t latch_count = 2;
};

}  // namespace lockcheck::sim
