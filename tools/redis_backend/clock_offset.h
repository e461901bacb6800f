/* The memory-mapped file through which a run moves a redis-server's wall clock (tools/redis_backend).
 * Shared by the LD_PRELOAD shim (C) and the run (C++). Written with a sequence lock: `sequence` is odd
 * while the writer changes the fields, so a reader retries instead of seeing half an update.
 * The server's wall clock = real wall clock + offset_ns + drift_ppm * (monotonic_ns - drift_since_ns) / 1e6. */
#ifndef LOCKCHECK_CLOCK_OFFSET_H
#define LOCKCHECK_CLOCK_OFFSET_H
#include <stdint.h>

struct lockcheck_clock_offset {
  volatile uint64_t sequence;
  volatile int64_t offset_ns;
  volatile int64_t drift_ppm;
  volatile int64_t drift_since_ns; /* CLOCK_MONOTONIC time at which the drift started */
};

/* The shim finds the file through this environment variable. */
#define LOCKCHECK_CLOCK_FILE_ENV "LOCKCHECK_CLOCK_FILE"

#endif
