#pragma once
// The production seam for a node's clock: the machine's wall clock. Only the RESP server, tests and
// benchmarks use it; simulated nodes get virtual clocks.
#include <cstdint>

namespace lockcheck::mock {

// Current Unix time in milliseconds from the system clock.
std::int64_t real_unix_time_ms();

}  // namespace lockcheck::mock
