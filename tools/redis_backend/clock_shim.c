/* LD_PRELOAD shim that offsets a process's wall clock (clock_gettime for the realtime clocks, gettimeofday,
 * time) by what a memory-mapped file says (clock_offset.h), so a run can jump or drift a redis-server's clock.
 * The real time comes from raw syscalls: no dlsym and no allocation, because jemalloc calls clock_gettime
 * while it initialises and a shim that allocates or resolves symbols there recurses (libfaketime's hang).
 * Monotonic clocks are untouched: Redis measures timeouts on them, and so does the run. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "clock_offset.h"

static const struct lockcheck_clock_offset* mapped;

__attribute__((constructor)) static void lockcheck_map_offset(void) {
  const char* path = getenv(LOCKCHECK_CLOCK_FILE_ENV);
  if (path == NULL) return;
  int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  void* area = mmap(NULL, sizeof(struct lockcheck_clock_offset), PROT_READ, MAP_SHARED, fd, 0);
  syscall(SYS_close, fd);
  if (area != MAP_FAILED) mapped = (const struct lockcheck_clock_offset*)area;
}

static long raw_clock_gettime(clockid_t clock, struct timespec* ts) { return syscall(SYS_clock_gettime, clock, ts); }

static int64_t current_offset_ns(void) {
  if (mapped == NULL) return 0;
  /* Bounded: a writer holds the odd sequence for a few stores only. */
  for (int attempt = 0; attempt < 1000; ++attempt) {
    uint64_t before = mapped->sequence;
    if (before & 1u) continue;
    __sync_synchronize();
    int64_t offset = mapped->offset_ns, drift_ppm = mapped->drift_ppm, since = mapped->drift_since_ns;
    __sync_synchronize();
    if (mapped->sequence != before) continue;
    if (drift_ppm == 0) return offset;
    struct timespec now;
    raw_clock_gettime(CLOCK_MONOTONIC, &now);
    int64_t elapsed_ns = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec - since;
    return offset + elapsed_ns / 1000000 * drift_ppm;
  }
  return 0;
}

static int is_wall_clock(clockid_t clock) {
  return clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE || clock == CLOCK_TAI;
}

static void add_ns(struct timespec* ts, int64_t delta_ns) {
  int64_t total = (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec + delta_ns;
  ts->tv_sec = (time_t)(total / 1000000000);
  ts->tv_nsec = (long)(total % 1000000000);
  if (ts->tv_nsec < 0) {
    ts->tv_nsec += 1000000000;
    ts->tv_sec -= 1;
  }
}

int clock_gettime(clockid_t clock, struct timespec* ts) {
  long result = raw_clock_gettime(clock, ts);
  if (result == 0 && is_wall_clock(clock)) add_ns(ts, current_offset_ns());
  return (int)result;
}

int gettimeofday(struct timeval* restrict tv, void* restrict tz) {
  (void)tz;
  /* glibc declares tv nonnull, yet callers may pass NULL (the kernel accepts it): check a copy. */
  struct timeval* volatile out = tv;
  if (out == NULL) return 0;
  struct timespec now;
  long result = raw_clock_gettime(CLOCK_REALTIME, &now);
  if (result != 0) return (int)result;
  add_ns(&now, current_offset_ns());
  out->tv_sec = now.tv_sec;
  out->tv_usec = now.tv_nsec / 1000;
  return 0;
}

time_t time(time_t* out) {
  struct timespec now;
  if (raw_clock_gettime(CLOCK_REALTIME, &now) != 0) return (time_t)-1;
  add_ns(&now, current_offset_ns());
  if (out != NULL) *out = now.tv_sec;
  return now.tv_sec;
}
