#include "lockcheck/hiredis_port.hpp"

#include <fmt/format.h>
#include <hiredis/hiredis.h>
#include <poll.h>

#include <cerrno>
#include <charconv>

#include <chrono>
#include <deque>
#include <map>
#include <set>

#include "lockcheck/errors.hpp"
#include "lockcheck/hiredis_reply.hpp"
#include "lockcheck/no_sigpipe.hpp"

namespace lockcheck {
namespace {

timeval to_timeval(Millis duration) {
  return timeval{static_cast<time_t>(duration.count() / 1000), static_cast<suseconds_t>(duration.count() % 1000 * 1000)};
}

// Sends a command synchronously on a fresh connection during setup (AUTH, SELECT, CLIENT SETNAME); returns an error text or "".
std::string setup_command(redisContext* context, const std::vector<std::string>& args) {
  std::vector<const char*> argv;
  std::vector<std::size_t> lengths;
  for (const auto& arg : args) {
    argv.push_back(arg.data());
    lengths.push_back(arg.size());
  }
  redisReply* reply = nullptr;
  {
    const detail::NoSigpipe no_sigpipe;
    reply = static_cast<redisReply*>(redisCommandArgv(context, static_cast<int>(argv.size()), argv.data(), lengths.data()));
  }
  if (reply == nullptr) return context->errstr;
  std::string error = reply->type == REDIS_REPLY_ERROR ? std::string(reply->str, reply->len) : "";
  freeReplyObject(reply);
  return error;
}

// The command in RESP, as redisAppendCommandArgv would write it, several times faster: hiredis formats each
// length with its own printf-like sdscatfmt, which was the largest part of a lock cycle's own CPU time
// (tools/bench/token_bench).
std::string resp_request(const Command& command) {
  std::size_t size = 16;
  for (const auto& arg : command) size += arg.size() + 24;
  std::string out;
  out.reserve(size);
  char digits[24];
  auto append_header = [&](char kind, std::size_t count) {
    out.push_back(kind);
    const auto end = std::to_chars(digits, digits + sizeof digits, count).ptr;
    out.append(digits, end);
    out.append("\r\n");
  };
  append_header('*', command.size());
  for (const auto& arg : command) {
    append_header('$', arg.size());
    out.append(arg);
    out.append("\r\n");
  }
  return out;
}

}  // namespace

struct HiredisPort::Node {
  ConnectionOptions options;
  redisContext* context = nullptr;
  // Pub/sub: a connection of its own (a subscribed RESP2 connection can run nothing else).
  redisContext* subscriber = nullptr;
  std::set<std::string> channels;
  std::map<std::string, std::deque<std::string>> queued;
  // Replies still due on `context` for commands a fan_out_until stopped awaiting. They arrive before the
  // reply to any later command (Redis answers in order), so collect_replies reads and discards them first,
  // under that command's timeout; if they do not come, the node times out and its connection is dropped.
  std::size_t owed = 0;
  std::uint64_t connections = 0;  // opened so far: connection_epoch()

  void drop() {
    if (context != nullptr) redisFree(context);
    context = nullptr;
    owed = 0;
  }
  void drop_subscriber() {
    if (subscriber != nullptr) redisFree(subscriber);
    subscriber = nullptr;
    channels.clear();
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
  for (const char c : options.client_name) {
    if (c < '!' || c > '~') {
      throw InvalidArgument(fmt::format("client name '{}' may hold only printable characters without spaces ('!' to '~')",
                                        options.client_name));
    }
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
  for (auto& node : nodes_) {
    node->drop();
    node->drop_subscriber();
  }
}

namespace {

// A new connection with AUTH, SELECT and CLIENT SETNAME done, or an error text.
std::string open_connection(const ConnectionOptions& options, const std::string& name, redisContext*& out) {
  redisContext* context = redisConnectWithTimeout(options.host.c_str(), options.port, to_timeval(options.connect_timeout));
  if (context == nullptr) return fmt::format("cannot connect to {}: out of memory", name);
  if (context->err != 0) {
    std::string error = fmt::format("cannot connect to {}: {}", name, context->errstr);
    redisFree(context);
    return error;
  }
  redisSetTimeout(context, to_timeval(options.command_timeout));
  std::string error;
  if (!options.password.empty()) {
    error = options.username.empty() ? setup_command(context, {"AUTH", options.password})
                                     : setup_command(context, {"AUTH", options.username, options.password});
    if (!error.empty()) error = fmt::format("AUTH on {} failed: {}", name, error);
  }
  if (error.empty() && options.database != 0) {
    error = setup_command(context, {"SELECT", std::to_string(options.database)});
    if (!error.empty()) error = fmt::format("SELECT {} on {} failed: {}", options.database, name, error);
  }
  if (error.empty() && !options.client_name.empty()) {
    error = setup_command(context, {"CLIENT", "SETNAME", options.client_name});
    if (!error.empty()) error = fmt::format("CLIENT SETNAME on {} failed: {}", name, error);
  }
  if (!error.empty()) {
    redisFree(context);
    return error;
  }
  out = context;
  return {};
}

}  // namespace

std::string HiredisPort::ensure_connected(Node& node) {
  if (node.context != nullptr) return {};
  std::string error = open_connection(node.options, node.name(), node.context);
  if (error.empty()) ++node.connections;
  return error;
}

std::uint64_t HiredisPort::connection_epoch(std::size_t node) const {
  std::lock_guard lock(mutex_);
  return node < nodes_.size() ? nodes_[node]->connections : 0;
}

void HiredisPort::connect(std::size_t node) {
  std::lock_guard lock(mutex_);
  if (node >= nodes_.size()) throw InvalidArgument(fmt::format("node {} does not exist", node));
  Node& target = *nodes_[node];
  if (std::string error = ensure_connected(target); !error.empty()) throw ConnectionError(error);
  // A PING proves the connection is usable: without it a missing password shows up only at the first lock.
  // It goes through call_locked, which first skips replies the connection still owes.
  const CallResult pong = call_locked(node, Command{"PING"});
  if (!pong.replied() || pong.reply.is_error()) {
    target.drop();
    throw ConnectionError(fmt::format("{} refused PING: {}", target.name(), pong.replied() ? pong.reply.text : pong.detail));
  }
}

CallResult HiredisPort::call_locked(std::size_t node, Command command) {
  // Moved, not copied: a braced initializer list would copy every argument twice on each call.
  std::vector<NodeCommand> one;
  one.push_back(NodeCommand{node, std::move(command)});
  return std::move(exchange_locked(one, nullptr).front());
}

Task<CallResult> HiredisPort::call(std::size_t node, Command command) {
  std::lock_guard lock(mutex_);
  co_return call_locked(node, std::move(command));
}

Task<CallResult> HiredisPort::call_on_connection(std::size_t node, std::uint64_t epoch, Command command) {
  std::lock_guard lock(mutex_);
  if (node >= nodes_.size() || nodes_[node]->context == nullptr || nodes_[node]->connections != epoch) {
    co_return CallResult::failed(CallStatus::not_sent, "the connection changed");
  }
  co_return call_locked(node, std::move(command));
}

Task<std::vector<CallResult>> HiredisPort::fan_out(std::vector<NodeCommand> commands) {
  std::lock_guard lock(mutex_);
  co_return exchange_locked(commands, nullptr);
}

Task<std::vector<CallResult>> HiredisPort::fan_out_until(std::vector<NodeCommand> commands, DecidedPredicate decided) {
  std::lock_guard lock(mutex_);
  co_return exchange_locked(commands, &decided);
}

std::vector<CallResult> HiredisPort::exchange_locked(const std::vector<NodeCommand>& commands, const DecidedPredicate* decided) {
  SettledResults settled(commands.size());
  std::vector<bool> pending(commands.size(), false);

  // Phase 1: append every command to its connection's output buffer and flush, without reading.
  for (std::size_t i = 0; i < commands.size(); ++i) {
    const std::size_t index = commands[i].node;
    if (index >= nodes_.size()) {
      settled[i] = CallResult::failed(CallStatus::not_sent, fmt::format("node {} does not exist", index));
      continue;
    }
    Node& node = *nodes_[index];
    if (std::string error = ensure_connected(node); !error.empty()) {
      settled[i] = CallResult::failed(CallStatus::not_sent, error);
      continue;
    }
    const std::string request = resp_request(commands[i].command);
    if (redisAppendFormattedCommand(node.context, request.data(), request.size()) != REDIS_OK) {
      settled[i] = CallResult::failed(CallStatus::not_sent, fmt::format("{}: {}", node.name(), node.context->errstr));
      node.drop();
      continue;
    }
    int done = 0;
    {
      const detail::NoSigpipe no_sigpipe;
      for (int round = 0; round < 1024 && done == 0; ++round) {
        if (redisBufferWrite(node.context, &done) != REDIS_OK) break;
      }
    }
    if (done == 0) {
      settled[i] = CallResult::failed(CallStatus::unknown, fmt::format("{}: write failed: {}", node.name(), node.context->errstr));
      node.drop();
      continue;
    }
    pending[i] = true;
  }
  // Phase 2: every request is on the wire; collect the replies as they arrive, whichever node answers
  // first. Each node gets its command timeout from now, all running at once: k silent nodes cost one
  // timeout, not k (reading them in turn would restart the socket timeout at each).
  Waiting waiting;
  for (std::size_t i = 0; i < commands.size(); ++i) {
    if (pending[i]) waiting[commands[i].node].push_back(i);
  }
  collect_replies(waiting, settled, decided);
  std::vector<CallResult> results;
  results.reserve(settled.size());
  for (auto& result : settled) {
    results.push_back(result ? std::move(*result) : CallResult::failed(CallStatus::unknown, kNotAwaited));
  }
  return results;
}

std::string HiredisPort::timeout_detail(const Node& node) {
  return fmt::format("{}: no reply within the command timeout ({} ms)", node.name(), node.options.command_timeout.count());
}

void HiredisPort::fail_node(Waiting& waiting, SettledResults& results, std::size_t index, const std::string& detail) {
  for (std::size_t i : waiting[index]) results[i] = CallResult::failed(CallStatus::unknown, detail);
  nodes_[index]->drop();  // a connection with replies still owed is out of step: reconnect next time
}

void HiredisPort::collect_replies(Waiting& waiting, SettledResults& results, const DecidedPredicate* decided) {
  const std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  // Bounded: a round takes what is buffered, then waits for data or a deadline; a reply of any size is read
  // in a few rounds, and the deadlines end the rest.
  for (std::size_t round = 0; round < 1000000 && !waiting.empty(); ++round) {
    take_buffered_replies(waiting, results);
    if (waiting.empty()) break;
    if (decided != nullptr && (*decided)(results)) {
      // The connections stay: their replies are read and discarded before the next ones (Node::owed).
      for (auto& [index, commands] : waiting) nodes_[index]->owed += commands.size();
      waiting.clear();
      break;
    }
    if (round == 0 && waiting.size() == 1) {
      // One node (every single call): a blocking read under the socket's timeout, which is the command
      // timeout (set at connect), waits as poll + read would, one system call cheaper (tools/bench/token_bench).
      read_single_node(waiting, results);
      continue;
    }
    poll_and_read(waiting, results, started);
  }
  for (auto& [index, commands] : waiting) {
    fail_node(waiting, results, index, fmt::format("{}: gave up reading replies", nodes_[index]->name()));
  }
}

void HiredisPort::take_buffered_replies(Waiting& waiting, SettledResults& results) {
  for (auto it = waiting.begin(); it != waiting.end();) {
    Node& node = *nodes_[it->first];
    bool broken = false;
    while (!it->second.empty()) {
      void* raw = nullptr;
      if (redisGetReplyFromReader(node.context, &raw) != REDIS_OK) {
        broken = true;
        break;
      }
      if (raw == nullptr) break;
      auto* reply = static_cast<redisReply*>(raw);
      if (node.owed > 0) {
        --node.owed;  // the reply to a command no caller awaits any more
      } else {
        results[it->second.front()] = CallResult::of(reply_from_hiredis(reply));
        it->second.pop_front();
      }
      freeReplyObject(reply);
    }
    if (broken) fail_node(waiting, results, it->first, fmt::format("{}: {}", node.name(), node.context->errstr));
    it = broken || it->second.empty() ? waiting.erase(it) : std::next(it);
  }
}

void HiredisPort::read_single_node(Waiting& waiting, SettledResults& results) {
  const std::size_t index = waiting.begin()->first;
  Node& node = *nodes_[index];
  if (redisBufferRead(node.context) != REDIS_OK) {
    const bool timed_out = node.context->err == REDIS_ERR_IO && (errno == EAGAIN || errno == EWOULDBLOCK);
    fail_node(waiting, results, index,
              timed_out ? timeout_detail(node) : fmt::format("{}: {}", node.name(), node.context->errstr));
    waiting.clear();
  }
}

void HiredisPort::poll_and_read(Waiting& waiting, SettledResults& results,
                                std::chrono::steady_clock::time_point started) {
  const std::chrono::steady_clock::time_point now = std::chrono::steady_clock::now();
  std::vector<pollfd> ready;
  std::vector<std::size_t> polled_nodes;
  Millis wait = Millis::max();
  for (auto it = waiting.begin(); it != waiting.end();) {
    Node& node = *nodes_[it->first];
    const auto left = std::chrono::ceil<Millis>(started + node.options.command_timeout - now);
    if (left <= Millis::zero()) {
      fail_node(waiting, results, it->first, timeout_detail(node));
      it = waiting.erase(it);
      continue;
    }
    wait = std::min(wait, left);
    ready.push_back(pollfd{node.context->fd, POLLIN, 0});
    polled_nodes.push_back(it->first);
    ++it;
  }
  if (waiting.empty()) return;
  const int polled = poll(ready.data(), static_cast<nfds_t>(ready.size()), static_cast<int>(std::min<Millis::rep>(wait.count(), 60000)));
  if (polled < 0 && errno != EINTR) {
    for (std::size_t index : polled_nodes) {
      fail_node(waiting, results, index, fmt::format("{}: poll failed", nodes_[index]->name()));
    }
    waiting.clear();
    return;
  }
  for (std::size_t k = 0; k < ready.size(); ++k) {
    if (polled <= 0 || ready[k].revents == 0) continue;
    Node& node = *nodes_[polled_nodes[k]];
    if (redisBufferRead(node.context) != REDIS_OK) {
      fail_node(waiting, results, polled_nodes[k], fmt::format("{}: {}", node.name(), node.context->errstr));
      waiting.erase(polled_nodes[k]);
    }
  }
}

}  // namespace lockcheck

namespace lockcheck {

void HiredisPort::queue_message(Node& node, const Reply& push) {
  // ["message" | "smessage", channel, payload]; subscribe confirmations and anything else are not messages.
  if (push.kind != Reply::Kind::array || push.elements.size() != 3) return;
  if (push.elements[0].text != "message" && push.elements[0].text != "smessage") return;
  std::deque<std::string>& queue = node.queued[push.elements[1].text];
  queue.push_back(push.elements[2].text);
  while (queue.size() > kMaxQueuedMessages) queue.pop_front();
}

Task<CallResult> HiredisPort::subscribe(std::size_t index, std::string channel) {
  co_return co_await subscribe_with(index, std::move(channel), "SUBSCRIBE", "subscribe");
}

Task<CallResult> HiredisPort::subscribe_shard(std::size_t index, std::string channel) {
  co_return co_await subscribe_with(index, std::move(channel), "SSUBSCRIBE", "ssubscribe");
}

Task<CallResult> HiredisPort::subscribe_with(std::size_t index, std::string channel, std::string_view command,
                                             std::string_view confirmation) {
  std::lock_guard lock(pubsub_mutex_);
  if (index >= nodes_.size()) co_return CallResult::failed(CallStatus::not_sent, fmt::format("node {} does not exist", index));
  Node& node = *nodes_[index];
  if (node.channels.count(channel) > 0) co_return CallResult::of(Reply::integer_reply(1));
  if (node.subscriber == nullptr) {
    if (std::string error = open_connection(node.options, node.name(), node.subscriber); !error.empty()) {
      co_return CallResult::failed(CallStatus::not_sent, error);
    }
  }
  const char* argv[] = {command.data(), channel.data()};
  const std::size_t lengths[] = {command.size(), channel.size()};
  if (redisAppendCommandArgv(node.subscriber, 2, argv, lengths) != REDIS_OK) {
    node.drop_subscriber();
    co_return CallResult::failed(CallStatus::not_sent, fmt::format("{}: {} could not be sent", node.name(), command));
  }
  // Messages for channels subscribed earlier may arrive before this confirmation: queue them. The socket's
  // command timeout bounds each read; the count bounds the loop.
  for (std::size_t read = 0; read < 10000; ++read) {
    void* raw = nullptr;
    int status = REDIS_OK;
    {
      const detail::NoSigpipe no_sigpipe;  // the first read writes the SUBSCRIBE first
      status = redisGetReply(node.subscriber, &raw);
    }
    if (status != REDIS_OK || raw == nullptr) break;
    Reply reply = reply_from_hiredis(static_cast<redisReply*>(raw));
    freeReplyObject(raw);
    if (reply.kind == Reply::Kind::array && reply.elements.size() == 3 && reply.elements[0].text == confirmation &&
        reply.elements[1].text == channel) {
      node.channels.insert(channel);
      co_return CallResult::of(Reply::integer_reply(1));
    }
    if (reply.is_error()) {
      node.drop_subscriber();
      co_return CallResult::of(std::move(reply));
    }
    queue_message(node, reply);
  }
  std::string detail = fmt::format("{}: no {} confirmation: {}", node.name(), command, node.subscriber->errstr);
  node.drop_subscriber();
  co_return CallResult::failed(CallStatus::unknown, detail);
}

Task<CallResult> HiredisPort::await_message(std::size_t index, std::string channel, Micros timeout) {
  std::lock_guard lock(pubsub_mutex_);
  if (index >= nodes_.size()) co_return CallResult::failed(CallStatus::not_sent, fmt::format("node {} does not exist", index));
  Node& node = *nodes_[index];
  if (node.channels.count(channel) == 0) co_return CallResult::failed(CallStatus::not_sent, "not subscribed to " + channel);
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  // Bounded: each round either takes a buffered reply, reads from the socket, or ends at the deadline.
  for (std::size_t round = 0; round < 100000; ++round) {
    std::deque<std::string>& queue = node.queued[channel];
    if (!queue.empty()) {
      std::string payload = std::move(queue.front());
      queue.pop_front();
      co_return CallResult::of(Reply::bulk(std::move(payload)));
    }
    void* raw = nullptr;
    if (redisGetReplyFromReader(node.subscriber, &raw) != REDIS_OK) break;
    if (raw != nullptr) {
      queue_message(node, reply_from_hiredis(static_cast<redisReply*>(raw)));
      freeReplyObject(raw);
      continue;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) co_return CallResult::failed(CallStatus::unknown, "no message before the timeout");
    pollfd ready{node.subscriber->fd, POLLIN, 0};
    const int polled = poll(&ready, 1, static_cast<int>(std::min<std::int64_t>(left.count() + 1, 60000)));
    if (polled < 0) break;
    if (polled == 0) continue;  // the deadline check above ends the wait
    if (redisBufferRead(node.subscriber) != REDIS_OK) break;
  }
  std::string detail = fmt::format("{}: pub/sub connection failed: {}", node.name(), node.subscriber->errstr);
  node.drop_subscriber();
  co_return CallResult::failed(CallStatus::unknown, detail);
}

}  // namespace lockcheck
