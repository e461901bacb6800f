#pragma once
// How long lockcheck judge waits for an external client's reply before it calls the client hung
// (PROTOCOL.md, "A client that hangs"): the op's own wait (an acquire's wait_ms; 0 for the others), plus the
// scenario's command timeout, plus a wide margin, in time the client was not paused (running_budget.hpp).
// The margin holds what a library may add on its own: a reconnect, a retry on each of several masters, a
// garbage collection, a loaded machine. A reply later than this is a client stuck, not a slow one.
// A client whose links the run delays (a scenario's [[network.links]] delay, explore --client's slow link) pays
// twice that delay for every round trip to Redis: the bound grants kRoundTripsPerOp of them on top, so that a
// library that retries ten to twelve times, each attempt a request and its clean-up (node-redlock 5 retrying a
// refused release, 4.2.0 an acquire that lost the race), through a 723 ms link is slow, not hung.
#include <chrono>

namespace lockcheck::judge {

inline constexpr std::chrono::milliseconds kHangMargin{10000};
inline constexpr int kRoundTripsPerOp = 24;

constexpr std::chrono::milliseconds reply_bound(std::chrono::milliseconds op_wait, std::chrono::milliseconds command_timeout,
                                                std::chrono::milliseconds link_delay = std::chrono::milliseconds(0)) {
  return op_wait + command_timeout + kHangMargin + kRoundTripsPerOp * 2 * link_delay;
}

}  // namespace lockcheck::judge
