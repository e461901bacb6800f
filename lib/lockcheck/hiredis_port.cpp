#include "lockcheck/hiredis_port.hpp"

#include <fmt/format.h>
#include <hiredis/hiredis.h>

#include "lockcheck/errors.hpp"
#include "lockcheck/hiredis_reply.hpp"

namespace lockcheck {
namespace {

timeval to_timeval(Millis duration) {
  return timeval{static_cast<time_t>(duration.count() / 1000), static_cast<suseconds_t>(duration.count() % 1000 * 1000)};
}

// Sends a command synchronously on a fresh connection during setup (AUTH, SELECT); returns an error text or "".
std::string setup_command(redisContext* context, const std::vector<std::string>& args) {
  std::vector<const char*> argv;
  std::vector<std::size_t> lengths;
  for (const auto& arg : args) {
    argv.push_back(arg.data());
    lengths.push_back(arg.size());
  }
  auto* reply = static_cast<redisReply*>(redisCommandArgv(context, static_cast<int>(argv.size()), argv.data(), lengths.data()));
  if (reply == nullptr) return context->errstr;
  std::string error = reply->type == REDIS_REPLY_ERROR ? std::string(reply->str, reply->len) : "";
  freeReplyObject(reply);
  return error;
}

}  // namespace

struct HiredisPort::Node {
  ConnectionOptions options;
  redisContext* context = nullptr;

  void drop() {
    if (context != nullptr) redisFree(context);
    context = nullptr;
  }
  std::string name() const { return fmt::format("{}:{}", options.host, options.port); }
};

void validate_connection_options(const ConnectionOptions& options) {
  if (options.host.empty()) throw InvalidArgument("Redis host must not be empty");
  if (options.port < 1 || options.port > 65535) {
    throw InvalidArgument(fmt::format("Redis port {} is out of range [1, 65535]", options.port));
  }
  if (options.connect_timeout <= Millis::zero() || options.command_timeout <= Millis::zero()) {
    throw InvalidArgument("connect_timeout and command_timeout must be positive: a call without a timeout can hang forever");
  }
  if (options.database < 0) throw InvalidArgument(fmt::format("database {} must not be negative", options.database));
  if (!options.username.empty() && options.password.empty()) {
    throw InvalidArgument("an ACL username needs a password");
  }
}

HiredisPort::HiredisPort(std::vector<ConnectionOptions> nodes) {
  if (nodes.empty()) throw InvalidArgument("a port needs at least one Redis node");
  for (auto& options : nodes) {
    validate_connection_options(options);
    auto node = std::make_unique<Node>();
    node->options = std::move(options);
    nodes_.push_back(std::move(node));
  }
}

HiredisPort::~HiredisPort() {
  for (auto& node : nodes_) node->drop();
}

std::string HiredisPort::ensure_connected(Node& node) {
  if (node.context != nullptr) return {};
  const ConnectionOptions& options = node.options;
  redisContext* context = redisConnectWithTimeout(options.host.c_str(), options.port, to_timeval(options.connect_timeout));
  if (context == nullptr) return fmt::format("cannot connect to {}: out of memory", node.name());
  if (context->err != 0) {
    std::string error = fmt::format("cannot connect to {}: {}", node.name(), context->errstr);
    redisFree(context);
    return error;
  }
  redisSetTimeout(context, to_timeval(options.command_timeout));
  std::string error;
  if (!options.password.empty()) {
    error = options.username.empty() ? setup_command(context, {"AUTH", options.password})
                                     : setup_command(context, {"AUTH", options.username, options.password});
    if (!error.empty()) error = fmt::format("AUTH on {} failed: {}", node.name(), error);
  }
  if (error.empty() && options.database != 0) {
    error = setup_command(context, {"SELECT", std::to_string(options.database)});
    if (!error.empty()) error = fmt::format("SELECT {} on {} failed: {}", options.database, node.name(), error);
  }
  if (!error.empty()) {
    redisFree(context);
    return error;
  }
  node.context = context;
  return {};
}

void HiredisPort::connect(std::size_t node) {
  std::lock_guard lock(mutex_);
  if (node >= nodes_.size()) throw InvalidArgument(fmt::format("node {} does not exist", node));
  Node& target = *nodes_[node];
  if (std::string error = ensure_connected(target); !error.empty()) throw ConnectionError(error);
  // A PING proves the connection is usable: without it a missing password shows up only at the first lock.
  if (std::string error = setup_command(target.context, {"PING"}); !error.empty()) {
    target.drop();
    throw ConnectionError(fmt::format("{} refused PING: {}", target.name(), error));
  }
}

CallResult HiredisPort::call_locked(std::size_t index, const Command& command) {
  if (index >= nodes_.size()) return CallResult::failed(CallStatus::not_sent, fmt::format("node {} does not exist", index));
  Node& node = *nodes_[index];
  if (std::string error = ensure_connected(node); !error.empty()) return CallResult::failed(CallStatus::not_sent, error);
  std::vector<const char*> argv;
  std::vector<std::size_t> lengths;
  argv.reserve(command.size());
  lengths.reserve(command.size());
  for (const auto& arg : command) {
    argv.push_back(arg.data());
    lengths.push_back(arg.size());
  }
  auto* reply = static_cast<redisReply*>(redisCommandArgv(node.context, static_cast<int>(argv.size()), argv.data(), lengths.data()));
  if (reply == nullptr) {
    std::string detail = fmt::format("{}: {}", node.name(), node.context->errstr);
    node.drop();  // a connection in an error state is unusable; reconnect on the next call
    return CallResult::failed(CallStatus::unknown, detail);
  }
  CallResult result = CallResult::of(reply_from_hiredis(reply));
  freeReplyObject(reply);
  return result;
}

Task<CallResult> HiredisPort::call(std::size_t node, Command command) {
  std::lock_guard lock(mutex_);
  co_return call_locked(node, command);
}

Task<std::vector<CallResult>> HiredisPort::fan_out(std::vector<NodeCommand> commands) {
  std::lock_guard lock(mutex_);
  std::vector<CallResult> results(commands.size());
  std::vector<bool> pending(commands.size(), false);

  // Phase 1: append every command to its connection's output buffer and flush, without reading.
  for (std::size_t i = 0; i < commands.size(); ++i) {
    const std::size_t index = commands[i].node;
    if (index >= nodes_.size()) {
      results[i] = CallResult::failed(CallStatus::not_sent, fmt::format("node {} does not exist", index));
      continue;
    }
    Node& node = *nodes_[index];
    if (std::string error = ensure_connected(node); !error.empty()) {
      results[i] = CallResult::failed(CallStatus::not_sent, error);
      continue;
    }
    std::vector<const char*> argv;
    std::vector<std::size_t> lengths;
    for (const auto& arg : commands[i].command) {
      argv.push_back(arg.data());
      lengths.push_back(arg.size());
    }
    if (redisAppendCommandArgv(node.context, static_cast<int>(argv.size()), argv.data(), lengths.data()) != REDIS_OK) {
      results[i] = CallResult::failed(CallStatus::not_sent, fmt::format("{}: {}", node.name(), node.context->errstr));
      node.drop();
      continue;
    }
    int done = 0;
    for (int round = 0; round < 1024 && done == 0; ++round) {
      if (redisBufferWrite(node.context, &done) != REDIS_OK) break;
    }
    if (done == 0) {
      results[i] = CallResult::failed(CallStatus::unknown, fmt::format("{}: write failed: {}", node.name(), node.context->errstr));
      node.drop();
      continue;
    }
    pending[i] = true;
  }
  // Phase 2: every request is on the wire; now collect the replies.
  for (std::size_t i = 0; i < commands.size(); ++i) {
    if (!pending[i]) continue;
    Node& node = *nodes_[commands[i].node];
    if (node.context == nullptr) {
      results[i] = CallResult::failed(CallStatus::unknown, fmt::format("{}: connection dropped", node.name()));
      continue;
    }
    void* raw = nullptr;
    if (redisGetReply(node.context, &raw) != REDIS_OK || raw == nullptr) {
      results[i] = CallResult::failed(CallStatus::unknown, fmt::format("{}: {}", node.name(), node.context->errstr));
      node.drop();
      continue;
    }
    auto* reply = static_cast<redisReply*>(raw);
    results[i] = CallResult::of(reply_from_hiredis(reply));
    freeReplyObject(reply);
  }
  co_return results;
}

}  // namespace lockcheck
