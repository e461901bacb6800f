#include "lockcheck/port.hpp"

namespace lockcheck {

Task<std::vector<CallResult>> Port::fan_out(std::vector<NodeCommand> commands) {
  std::vector<Task<CallResult>> calls;
  calls.reserve(commands.size());
  for (auto& entry : commands) calls.push_back(call(entry.node, std::move(entry.command)));
  co_return co_await when_all(std::move(calls));
}

}  // namespace lockcheck
