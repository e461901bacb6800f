#pragma once
// The Port seam: send a Redis command to node i and await its reply.
#include <cstddef>
#include <string>
#include <vector>

#include "lockcheck/reply.hpp"
#include "lockcheck/task.hpp"
#include "lockcheck/time.hpp"

namespace lockcheck {

enum class CallStatus {
  replied,   // the node answered (possibly with an error reply)
  not_sent,  // the command certainly did not run: no connection could be made
  unknown,   // the command was sent but no reply came (timeout, connection lost): it may have run
};

struct CallResult {
  CallStatus status = CallStatus::unknown;
  Reply reply;         // meaningful when status == replied
  std::string detail;  // why there is no reply, for messages

  bool replied() const { return status == CallStatus::replied; }
  static CallResult of(Reply reply) { return {CallStatus::replied, std::move(reply), {}}; }
  static CallResult failed(CallStatus status, std::string detail) { return {status, {}, std::move(detail)}; }
};

struct NodeCommand {
  std::size_t node = 0;
  Command command;
};

class Port {
 public:
  virtual ~Port() = default;
  virtual std::size_t node_count() const = 0;
  virtual Task<CallResult> call(std::size_t node, Command command) = 0;
  // Sends every command before awaiting any reply, so N nodes cost about one round trip.
  // Results keep the input order. The default awaits the calls concurrently with when_all.
  virtual Task<std::vector<CallResult>> fan_out(std::vector<NodeCommand> commands);

  // Pub/sub, for waiters that sleep until a release is announced (redisson-like) instead of polling.
  // subscribe() returns once `channel` on `node` is subscribed (on a connection of its own: a subscribed
  // RESP2 connection can run nothing else); the port stays subscribed, and messages published there from
  // then on queue up (the newest few) until await_message() takes one. await_message() replies with the
  // payload as a bulk string, or CallStatus::unknown when `timeout` passed first. The defaults answer
  // not_sent ("this port has no pub/sub"), and callers fall back to polling.
  virtual Task<CallResult> subscribe(std::size_t node, std::string channel);
  virtual Task<CallResult> await_message(std::size_t node, std::string channel, Micros timeout);
};

// How many undelivered messages a port keeps per subscribed channel; older ones are dropped (a waiter only
// needs to know that *a* release happened since it last looked).
inline constexpr std::size_t kMaxQueuedMessages = 16;

}  // namespace lockcheck
