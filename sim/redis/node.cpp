#include "node.hpp"

#include <cassert>
#include <utility>

#include "command.hpp"
#include "commands.hpp"
#include "errors.hpp"
#include "lua_engine.hpp"
#include "text.hpp"

namespace lockcheck::mock {
namespace {

bool arity_ok(const CommandSpec& spec, std::size_t argc) {
  return spec.arity > 0 ? argc == static_cast<std::size_t>(spec.arity) : argc >= static_cast<std::size_t>(-spec.arity);
}

// "ERR unknown command 'foo', with args beginning with: 'a' 'b' " as Redis prints it (args up to ~128 bytes).
Reply unknown_command(const Command& command) {
  std::string args;
  for (std::size_t i = 1; i < command.size() && args.size() < 128; ++i) {
    args += "'" + command[i].substr(0, 128 - args.size()) + "' ";
  }
  std::string text = "ERR unknown command '" + command[0].substr(0, 128) + "', with args beginning with: " + args;
  for (char& c : text) {
    if (c == '\r' || c == '\n') c = ' ';
  }
  return Reply::error(std::move(text));
}

}  // namespace

Node::Node(NodeOptions options)
    : options_(std::move(options)),
      keyspace_(options_.eviction_seed),
      lua_(std::make_unique<LuaEngine>(*this, options_.script_instruction_limit, options_.script_memory_limit_bytes)) {
  assert(options_.clock && "a Node needs a clock");
  keyspace_.set_observer(options_.observer);
  wait_hook_ = [](std::int64_t, std::int64_t, std::int64_t) -> std::int64_t { return 0; };
}

Node::~Node() = default;

void Node::set_observer(Observer* observer) {
  options_.observer = observer;
  keyspace_.set_observer(observer);
}

void Node::set_cluster_view(std::shared_ptr<const ClusterView> view, int myself) {
  cluster_ = std::move(view);
  cluster_myself_ = myself;
}

void Node::set_maxmemory_keys(std::size_t keys, EvictionPolicy policy) {
  options_.maxmemory_keys = keys;
  options_.eviction = policy;
}

Reply Node::execute(const Command& command, Session& session) {
  if (command.empty()) return Reply::error("ERR empty command");
  char name_buffer[32];
  std::string_view name = lower_into(command[0], name_buffer);
  const CommandSpec* spec = find_command(name);
  if (spec == nullptr) return unknown_command(command);
  if (!arity_ok(*spec, command.size())) return err::arity(spec->name);
  if (!session.channels.empty() && !(spec->flags & kPubSub)) {
    return Reply::error("ERR Can't execute '" + std::string(name) +
                        "': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context");
  }
  // The node clock is read once per command; a script's nested commands share this reading (frozen time).
  keyspace_.begin(options_.clock(), Actor{session.client_id, spec->name, {}});
  if (cluster_) {
    const bool asking = std::exchange(session.asking, false);  // ASKING covers the next command only
    if (auto refusal = cluster_redirect(*cluster_, cluster_myself_, command, asking, session.readonly,
                                        (spec->flags & kWrite) != 0, keyspace_)) {
      return std::move(*refusal);
    }
    session.asking = asking;  // read by scripts below, cleared again after the command
  }
  if ((spec->flags & kDenyOom) && !make_room()) return err::reply(err::kOom);
  Session* previous = script_session_;
  script_session_ = &session;
  ++depth_;
  CommandContext context{*this, keyspace_, session, command, false};
  Reply reply = spec->handler(context);
  --depth_;
  script_session_ = previous;
  if (cluster_ && spec->handler != cmd::asking) session.asking = false;
  return reply;
}

Reply Node::call_from_script(const Command& command, bool read_only) {
  assert(script_session_ != nullptr && depth_ > 0);
  char name_buffer[32];
  const CommandSpec* spec = find_command(lower_into(command[0], name_buffer));
  if (spec == nullptr) return Reply::error("ERR Unknown Redis command called from script");
  if (!arity_ok(*spec, command.size())) return Reply::error("ERR Wrong number of args calling Redis command from script");
  if (spec->flags & kNoScript) return Reply::error("ERR This Redis command is not allowed from script");
  if (read_only && (spec->flags & kWrite)) return Reply::error("ERR Write commands are not allowed from read-only scripts.");
  if (cluster_) {
    if (auto refusal = cluster_script_check(*cluster_, cluster_myself_, command, script_session_->asking,
                                            keyspace_)) {
      return std::move(*refusal);
    }
  }
  Actor outer = keyspace_.actor();
  keyspace_.set_actor(Actor{outer.client_id, spec->name, script_sha_});
  Reply reply;
  if ((spec->flags & kDenyOom) && !make_room()) {
    reply = err::reply(err::kOom);
  } else {
    CommandContext context{*this, keyspace_, *script_session_, command, true};
    reply = spec->handler(context);
  }
  keyspace_.set_actor(outer);
  return reply;
}

bool Node::make_room() {
  if (options_.maxmemory_keys == 0) return true;
  // Each round removes a key, so at most size() rounds.
  for (std::size_t round = 0, limit = keyspace_.size() + 1; round < limit && keyspace_.size() >= options_.maxmemory_keys; ++round) {
    if (!keyspace_.evict_one(options_.eviction)) return false;
  }
  return keyspace_.size() < options_.maxmemory_keys;
}

std::size_t Node::expire_some(std::size_t limit) {
  keyspace_.begin(options_.clock(), Actor{});
  return keyspace_.expire_some(limit);
}

bool Node::evict_one() {
  keyspace_.begin(options_.clock(), Actor{});
  EvictionPolicy policy = options_.eviction == EvictionPolicy::noeviction ? EvictionPolicy::allkeys_random : options_.eviction;
  return keyspace_.evict_one(policy);
}

void Node::flush_scripts() { lua_->flush(); }

void Node::disconnect(Session& session) {
  for (const std::string& channel : session.channels) {
    auto it = subscribers_.find(channel);
    if (it == subscribers_.end()) continue;
    it->second.erase(session.client_id);
    if (it->second.empty()) subscribers_.erase(it);
  }
  session.channels.clear();
}

std::int64_t Node::publish(const std::string& channel, const std::string& message) {
  const std::int64_t receivers = deliver_published(channel, message);
  if (publish_bus_) publish_bus_(channel, message);
  return receivers;
}

std::int64_t Node::deliver_published(const std::string& channel, const std::string& message) {
  auto it = subscribers_.find(channel);
  if (it == subscribers_.end()) return 0;
  // Copy: a sink may unsubscribe someone while we deliver.
  std::set<std::int64_t> receivers = it->second;
  if (publish_sink_) {
    Reply push = Reply::array({Reply::bulk("message"), Reply::bulk(channel), Reply::bulk(message)});
    for (std::int64_t client_id : receivers) publish_sink_(client_id, push);
  }
  return static_cast<std::int64_t>(receivers.size());
}

Reply Node::subscribe(Session& session, const Command& command) {
  std::vector<Reply> confirmations;
  for (std::size_t i = 1; i < command.size(); ++i) {
    session.channels.insert(command[i]);
    subscribers_[command[i]].insert(session.client_id);
    confirmations.push_back(Reply::array({Reply::bulk("subscribe"), Reply::bulk(command[i]),
                                          Reply::integer_reply(static_cast<std::int64_t>(session.channels.size()))}));
  }
  for (std::size_t i = 1; i < confirmations.size(); ++i) session.extra_replies.push_back(std::move(confirmations[i]));
  return std::move(confirmations.front());
}

Reply Node::unsubscribe(Session& session, const Command& command) {
  std::vector<std::string> channels(command.begin() + 1, command.end());
  if (channels.empty()) channels.assign(session.channels.begin(), session.channels.end());
  if (channels.empty()) return Reply::array({Reply::bulk("unsubscribe"), Reply::nil(), Reply::integer_reply(0)});
  std::vector<Reply> confirmations;
  for (const std::string& channel : channels) {
    session.channels.erase(channel);
    auto it = subscribers_.find(channel);
    if (it != subscribers_.end()) {
      it->second.erase(session.client_id);
      if (it->second.empty()) subscribers_.erase(it);
    }
    confirmations.push_back(Reply::array({Reply::bulk("unsubscribe"), Reply::bulk(channel),
                                          Reply::integer_reply(static_cast<std::int64_t>(session.channels.size()))}));
  }
  for (std::size_t i = 1; i < confirmations.size(); ++i) session.extra_replies.push_back(std::move(confirmations[i]));
  return std::move(confirmations.front());
}

std::int64_t Node::wait_replicas(std::int64_t client_id, std::int64_t numreplicas, std::int64_t timeout_ms) {
  return wait_hook_ ? wait_hook_(client_id, numreplicas, timeout_ms) : 0;
}

}  // namespace lockcheck::mock
