#include "node.hpp"

#include <cassert>
#include <utility>

#include "subcommands.hpp"
#include "command.hpp"
#include "commands.hpp"
#include "errors.hpp"
#include "lua_engine.hpp"
#include "subcommands.hpp"
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
      notifier_([this](const std::string& channel, const std::string& message) { publish(channel, message); }),
      lua_(std::make_unique<LuaEngine>(*this, options_.script_instruction_limit, options_.script_memory_limit_bytes)) {
  assert(options_.clock && "a Node needs a clock");
  notifier_.set_downstream(options_.observer);
  keyspace_.set_observer(&notifier_);
  wait_hook_ = [](std::int64_t, std::int64_t, std::int64_t) -> std::int64_t { return 0; };
  start_ms_ = options_.clock();
}

Node::~Node() = default;

void Node::set_observer(Observer* observer) {
  options_.observer = observer;
  notifier_.set_downstream(observer);
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
  ++stats_.commands_processed;
  char name_buffer[32];
  std::string_view name = lower_into(command[0], name_buffer);
  const CommandSpec* spec = find_command(name);
  // The order of redis-server's processCommand: QUIT always; unknown command and arity before NOAUTH. A
  // command refused while a transaction is open makes its EXEC fail (EXECABORT).
  if (spec != nullptr && spec->handler == cmd::quit) {
    session.close_requested = true;
    return Reply::ok();
  }
  const bool queueing = session.transaction.open;
  if (spec == nullptr) {
    session.transaction.aborted |= queueing;
    return unknown_command(command);
  }
  if (!arity_ok(*spec, command.size())) {
    session.transaction.aborted |= queueing;
    return err::arity(spec->name);
  }
  if (auto refused = subcommand_error(command)) {
    session.transaction.aborted |= queueing;
    return std::move(*refused);
  }
  if (!session.requirepass.empty() && !session.authenticated && !(spec->flags & kNoAuth)) {
    return Reply::error("NOAUTH Authentication required.");
  }
  session.last_command = spec->name;
  if (session.resp == 2 && !session.channels.empty() && !(spec->flags & kPubSub)) {
    return Reply::error("ERR Can't execute '" + std::string(name) +
                        "': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context");
  }
  if (queueing && !(spec->flags & kNoQueue)) {
    session.transaction.queued.push_back(command);
    return Reply::status("QUEUED");
  }
  // The node clock is read once per command; a script's nested commands share this reading (frozen time).
  keyspace_.begin(options_.clock(), Actor{session.client_id, spec->name, {}});
  keyspace_.select(session.db);  // a script's SELECT changed only the script's database
  if (session.connected_at_ms == 0) session.connected_at_ms = keyspace_.now_ms();
  if (cluster_) {
    const bool asking = std::exchange(session.asking, false);  // ASKING covers the next command only
    if (auto refusal = cluster_redirect(*cluster_, cluster_myself_, command, asking, session.readonly,
                                        (spec->flags & kWrite) != 0, keyspace_)) {
      return std::move(*refusal);
    }
    session.asking = asking;  // read by scripts below, cleared again after the command
  }
  if ((spec->flags & kDenyOom) && !make_room()) return err::reply(err::kOom);
  notifier_.set_arguments(&command);
  Session* previous = script_session_;
  script_session_ = &session;
  ++depth_;
  CommandContext context{*this, keyspace_, session, command, false, session.resp};
  Reply reply = spec->handler(context);
  --depth_;
  script_session_ = previous;
  if (cluster_ && spec->handler != cmd::asking) session.asking = false;
  notifier_.set_arguments(nullptr);
  if (session.resp != 3) {
    to_resp2(reply);
    for (Reply& extra : session.extra_replies) to_resp2(extra);
  }
  return reply;
}

Reply Node::run_queued(const Command& command, Session& session) {
  char name_buffer[32];
  const CommandSpec* spec = find_command(lower_into(command[0], name_buffer));
  assert(spec != nullptr && "only known commands are queued");
  // Same clock reading as EXEC itself: the transaction runs at one instant, as a script does.
  keyspace_.set_actor(Actor{session.client_id, spec->name, {}});
  keyspace_.select(session.db);  // a queued script's SELECT does not carry over to the next command
  if ((spec->flags & kDenyOom) && !make_room()) return err::reply(err::kOom);
  CommandContext context{*this, keyspace_, session, command, false, session.resp};
  return spec->handler(context);
}

void Node::watch(Session& session, std::string_view key) {
  const int db = keyspace_.selected();
  for (const WatchedKey& watched : session.watched) {
    if (watched.key == key && watched.db == db) return;
  }
  const WatchCounters counters = keyspace_.watched(db).watch(key);
  session.watched.push_back(WatchedKey{std::string(key), db, counters.changes, counters.non_expiry_changes,
                                       keyspace_.expired_in_place(key)});
}

void Node::unwatch_all(Session& session) {
  for (const WatchedKey& watched : session.watched) keyspace_.watched(watched.db).unwatch(watched.key);
  session.watched.clear();
}

bool Node::watched_key_changed(const Session& session) const {
  for (const WatchedKey& watched : session.watched) {
    const WatchCounters now = keyspace_.watched(watched.db).counters(watched.key);
    // A key already expired when watched may be reclaimed without that counting as a change (Redis 7.0);
    // one that expires after WATCH is a change even before it is reclaimed.
    if (watched.expired_at_watch ? now.non_expiry_changes != watched.non_expiry_changes : now.changes != watched.changes) {
      return true;
    }
    if (!watched.expired_at_watch && keyspace_.expired_in_place(watched.key, watched.db)) return true;
  }
  return false;
}

Reply Node::call_from_script(const Command& command, bool read_only, bool allow_oom) {
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
  notifier_.set_arguments(&command);
  Reply reply;
  if ((spec->flags & kDenyOom) && !allow_oom && !make_room()) {
    reply = err::reply(err::kOom);
  } else {
    const int resp = lua_->resp3() ? 3 : 2;
    CommandContext context{*this, keyspace_, *script_session_, command, true, resp};
    reply = spec->handler(context);
    notifier_.set_arguments(nullptr);
    if (resp != 3) to_resp2(reply);
  }
  keyspace_.set_actor(outer);
  return reply;
}

bool Node::make_room() {
  if (options_.maxmemory_keys == 0) return true;
  // Each round removes a key, so at most size() rounds.
  for (std::size_t round = 0, limit = keyspace_.total_size() + 1;
       round < limit && keyspace_.total_size() >= options_.maxmemory_keys; ++round) {
    if (!keyspace_.evict_one(options_.eviction)) return false;
  }
  return keyspace_.total_size() < options_.maxmemory_keys;
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

bool Node::evict_key(std::string_view key) {
  keyspace_.begin(options_.clock(), Actor{});
  keyspace_.select(0);  // the simulator's locks live in database 0
  return keyspace_.evict(key);
}

void Node::flush_scripts() { lua_->flush(); }

void Node::disconnect(Session& session) {
  unwatch_all(session);
  session.transaction = {};
  session.db = 0;  // a session reused for a new connection starts in db 0, as a new connection does
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
    Reply push = Reply::push({Reply::bulk("message"), Reply::bulk(channel), Reply::bulk(message)});
    for (std::int64_t client_id : receivers) publish_sink_(client_id, push);
  }
  return static_cast<std::int64_t>(receivers.size());
}

Reply Node::subscribe(Session& session, const Command& command) {
  std::vector<Reply> confirmations;
  for (std::size_t i = 1; i < command.size(); ++i) {
    session.channels.insert(command[i]);
    subscribers_[command[i]].insert(session.client_id);
    confirmations.push_back(Reply::push({Reply::bulk("subscribe"), Reply::bulk(command[i]),
                                          Reply::integer_reply(static_cast<std::int64_t>(session.channels.size()))}));
  }
  for (std::size_t i = 1; i < confirmations.size(); ++i) session.extra_replies.push_back(std::move(confirmations[i]));
  return std::move(confirmations.front());
}

Reply Node::unsubscribe(Session& session, const Command& command) {
  std::vector<std::string> channels(command.begin() + 1, command.end());
  if (channels.empty()) channels.assign(session.channels.begin(), session.channels.end());
  if (channels.empty()) return Reply::push({Reply::bulk("unsubscribe"), Reply::nil(), Reply::integer_reply(0)});
  std::vector<Reply> confirmations;
  for (const std::string& channel : channels) {
    session.channels.erase(channel);
    auto it = subscribers_.find(channel);
    if (it != subscribers_.end()) {
      it->second.erase(session.client_id);
      if (it->second.empty()) subscribers_.erase(it);
    }
    confirmations.push_back(Reply::push({Reply::bulk("unsubscribe"), Reply::bulk(channel),
                                          Reply::integer_reply(static_cast<std::int64_t>(session.channels.size()))}));
  }
  for (std::size_t i = 1; i < confirmations.size(); ++i) session.extra_replies.push_back(std::move(confirmations[i]));
  return std::move(confirmations.front());
}

void Node::config_changed() {
  const std::string& policy = config_.value("maxmemory-policy");
  if (policy == "allkeys-random") options_.eviction = EvictionPolicy::allkeys_random;
  else if (policy == "allkeys-lru" || policy == "allkeys-lfu") options_.eviction = EvictionPolicy::allkeys_lru;
  else options_.eviction = EvictionPolicy::noeviction;
}

std::int64_t Node::wait_replicas(std::int64_t client_id, std::int64_t numreplicas, std::int64_t timeout_ms) {
  return wait_hook_ ? wait_hook_(client_id, numreplicas, timeout_ms) : 0;
}

}  // namespace lockcheck::mock
