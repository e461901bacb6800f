#pragma once
// The node's wall clock, injected so that the simulator can give every node its own skewed, drifting or
// jumping clock: expiry then happens on the node's idea of time, exactly as on a real server.
#include <cstdint>
#include <functional>

namespace lockcheck::mock {

// Returns the current Unix time in milliseconds as this node believes it.
using NodeClock = std::function<std::int64_t()>;

}  // namespace lockcheck::mock
