#pragma once
// The Port seam: send a Redis command to node i and await its reply.
#include <cstddef>
#include <string>
#include <vector>

#include "lockcheck/reply.hpp"
#include "lockcheck/task.hpp"

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
};

}  // namespace lockcheck
