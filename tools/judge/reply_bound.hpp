#pragma once
// How long lockcheck judge waits for an external client's reply before it calls the client hung
// (PROTOCOL.md, "A client that hangs"): the op's own wait (an acquire's wait_ms; 0 for the others), plus the
// scenario's command timeout, plus a wide margin, in time the client was not paused (running_budget.hpp).
// The margin holds what a library may add on its own: a reconnect, a retry on each of several masters, a
// garbage collection, a loaded machine. A reply later than this is a client stuck, not a slow one.
#include <chrono>

namespace lockcheck::judge {

inline constexpr std::chrono::milliseconds kHangMargin{10000};

constexpr std::chrono::milliseconds reply_bound(std::chrono::milliseconds op_wait, std::chrono::milliseconds command_timeout) {
  return op_wait + command_timeout + kHangMargin;
}

}  // namespace lockcheck::judge
