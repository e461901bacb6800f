#pragma once
// How long lockcheck judge waits for an external client's reply before it calls the client hung
// (PROTOCOL.md, "A client that hangs"): the op's own wait (an acquire's wait_ms; 0 for the others), plus the
// scenario's command timeout kCommandTimeoutsPerOp times, plus a wide margin, in time the client was not paused
// (running_budget.hpp). A library may wait out its command timeout many times in one call by design: redis-py
// 4.3.4's RedisCluster, on a node that answers nothing, makes 3 attempts of 5 tries each (0.25 s apart), every
// attempt followed by a slot refresh that may wait on the same node once more: 18 timeouts and 3 s of sleeps
// (10.6 s at 500 ms, measured through a partition). The margin holds what a library adds beyond its timeouts:
// sleeps between retries, a garbage collection, a loaded machine. A reply later than this is a client stuck,
// not a slow one.
// A client whose links the run delays (a scenario's [[network.links]] delay, explore --client's slow link) pays
// twice that delay for every round trip to Redis: the bound grants kRoundTripsPerOp of them on top, so that a
// library that retries ten to twelve times, each attempt a request and its clean-up (node-redlock 5 retrying a
// refused release, 4.2.0 an acquire that lost the race), through a 723 ms link is slow, not hung.
#include <chrono>

namespace lockcheck::judge {

inline constexpr std::chrono::milliseconds kHangMargin{10000};
inline constexpr int kCommandTimeoutsPerOp = 18;
inline constexpr int kRoundTripsPerOp = 24;

constexpr std::chrono::milliseconds reply_bound(std::chrono::milliseconds op_wait, std::chrono::milliseconds command_timeout,
                                                std::chrono::milliseconds link_delay = std::chrono::milliseconds(0)) {
  return op_wait + kCommandTimeoutsPerOp * command_timeout + kHangMargin + kRoundTripsPerOp * 2 * link_delay;
}

}  // namespace lockcheck::judge
