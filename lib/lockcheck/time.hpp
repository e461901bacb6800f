#pragma once
#include <chrono>

namespace lockcheck {

// Durations carry their unit in the type; variables carry it in their name (ttl_ms, elapsed_us).
using Micros = std::chrono::microseconds;
using Millis = std::chrono::milliseconds;

// A reading of a monotonic clock: microseconds since an arbitrary origin, comparable only on one clock.
using MonoTime = std::chrono::microseconds;

}  // namespace lockcheck
