#include "lockcheck/script.hpp"

#include "lockcheck/sha1.hpp"

namespace lockcheck {
namespace {

Command script_command(std::string_view verb, std::string_view body, const std::vector<std::string>& keys,
                       const std::vector<std::string>& args) {
  Command command;
  command.reserve(3 + keys.size() + args.size());
  command.emplace_back(verb);
  command.emplace_back(body);
  command.push_back(std::to_string(keys.size()));
  command.insert(command.end(), keys.begin(), keys.end());
  command.insert(command.end(), args.begin(), args.end());
  return command;
}

bool is_noscript(const CallResult& result) { return result.replied() && result.reply.error_code() == "NOSCRIPT"; }

}  // namespace

// Remembered: a program may build the same script's lock many times (a simulated run, one per client).
Script::Script(std::string_view source) : source_(source), sha_(remembered_sha1_hex(source)) {}

Command eval_source_command(const Script& script, const std::vector<std::string>& keys,
                            const std::vector<std::string>& args) {
  return script_command("EVAL", script.source(), keys, args);
}

Task<CallResult> eval(Port& port, std::size_t node, const Script& script, std::vector<std::string> keys,
                      std::vector<std::string> args) {
  CallResult result = co_await port.call(node, script_command("EVALSHA", script.sha(), keys, args));
  if (is_noscript(result)) {
    result = co_await port.call(node, script_command("EVAL", script.source(), keys, args));
  }
  co_return result;
}

Task<std::vector<CallResult>> eval_on(Port& port, const std::vector<std::size_t>& nodes, const Script& script,
                                      const std::vector<std::string>& keys, const std::vector<std::string>& args,
                                      DecidedPredicate decided) {
  std::vector<NodeCommand> commands;
  commands.reserve(nodes.size());
  for (std::size_t node : nodes) commands.push_back({node, script_command("EVALSHA", script.sha(), keys, args)});
  std::vector<CallResult> results;
  if (decided) {
    // A NOSCRIPT node has not answered the caller's question yet: show it as still awaited.
    DecidedPredicate without_noscript = [&decided](const SettledResults& settled) {
      SettledResults answered = settled;
      for (auto& result : answered) {
        if (result && is_noscript(*result)) result.reset();
      }
      return decided(answered);
    };
    results = co_await port.fan_out_until(std::move(commands), std::move(without_noscript));
  } else {
    results = co_await port.fan_out(std::move(commands));
  }

  std::vector<NodeCommand> retries;
  std::vector<std::size_t> retry_slots;
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (!is_noscript(results[i])) continue;
    retries.push_back({nodes[i], script_command("EVAL", script.source(), keys, args)});
    retry_slots.push_back(i);
  }
  if (!retries.empty()) {
    std::vector<CallResult> retried = co_await port.fan_out(std::move(retries));
    for (std::size_t i = 0; i < retried.size(); ++i) results[retry_slots[i]] = std::move(retried[i]);
  }
  co_return results;
}

}  // namespace lockcheck
