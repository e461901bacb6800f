#include "lockcheck/port.hpp"

namespace lockcheck {

Task<CallResult> Port::call_on_connection(std::size_t node, std::uint64_t epoch, Command command) {
  if (connection_epoch(node) != epoch) co_return CallResult::failed(CallStatus::not_sent, "the connection changed");
  co_return co_await call(node, std::move(command));
}

Task<std::vector<CallResult>> Port::fan_out(std::vector<NodeCommand> commands) {
  std::vector<Task<CallResult>> calls;
  calls.reserve(commands.size());
  for (auto& entry : commands) calls.push_back(call(entry.node, std::move(entry.command)));
  return when_all(std::move(calls));
}

Task<std::vector<CallResult>> Port::fan_out_until(std::vector<NodeCommand> commands, DecidedPredicate decided) {
  std::vector<Task<CallResult>> calls;
  calls.reserve(commands.size());
  for (auto& entry : commands) calls.push_back(call(entry.node, std::move(entry.command)));
  std::vector<std::optional<CallResult>> settled = co_await when_enough(std::move(calls), std::move(decided), stragglers_);
  std::vector<CallResult> results;
  results.reserve(settled.size());
  for (auto& result : settled) {
    results.push_back(result ? std::move(*result) : CallResult::failed(CallStatus::unknown, kNotAwaited));
  }
  co_return results;
}

Task<CallResult> Port::subscribe(std::size_t node, std::string channel) {
  (void)node;
  (void)channel;
  co_return CallResult::failed(CallStatus::not_sent, "this port has no pub/sub");
}

Task<CallResult> Port::subscribe_shard(std::size_t node, std::string channel) {
  (void)node;
  (void)channel;
  co_return CallResult::failed(CallStatus::not_sent, "this port has no shard pub/sub");
}

Task<CallResult> Port::await_message(std::size_t node, std::string channel, Micros timeout) {
  (void)node;
  (void)channel;
  (void)timeout;
  co_return CallResult::failed(CallStatus::not_sent, "this port has no pub/sub");
}

}  // namespace lockcheck
