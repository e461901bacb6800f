#pragma once
// The production seam for a node's clock: the machine's wall clock. Only the RESP server, tests and
// benchmarks use it; simulated nodes get virtual clocks.
#include <cstdint>

namespace lockcheck::mock {

// Current Unix time in milliseconds from the system clock.
std::int64_t real_unix_time_ms();
// The same clock in microseconds: MONITOR's timestamps, as Redis's gettimeofday.
std::int64_t real_unix_time_us();

}  // namespace lockcheck::mock
