#include "redis/server/node.hpp"

#include <algorithm>
#include <type_traits>
#include <utility>
#include <variant>

#include "lockcheck/assert.hpp"
#include "redis/acl/acl_texts.hpp"
#include "redis/command_table/command.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/server/monitor.hpp"
#include "redis/scripting/lua_engine.hpp"
#include "redis/keyspace/memory_estimate.hpp"
#include "redis/util/numbers.hpp"
#include "redis/command_table/subcommands.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock {
namespace {

bool arity_ok(const CommandSpec& spec, std::size_t argc) {
  return spec.arity > 0 ? argc == static_cast<std::size_t>(spec.arity) : argc >= static_cast<std::size_t>(-spec.arity);
}

// Redis's CMD_ALLOW_BUSY commands, and the SCRIPT KILL / FUNCTION KILL / FUNCTION STATS subcommands.
bool allowed_while_busy(const CommandSpec& spec, const Command& command) {
  if (spec.flags & kAllowBusy) return true;
  if (spec.name == "shutdown") {  // "You can only call SCRIPT KILL or SHUTDOWN NOSAVE."
    return std::any_of(command.begin() + 1, command.end(), [](const std::string& arg) { return iequals(arg, "nosave"); });
  }
  if (command.size() != 2) return false;
  if (spec.name == "script") return iequals(command[1], "kill");
  if (spec.name == "function") return iequals(command[1], "kill") || iequals(command[1], "stats");
  return false;
}

}  // namespace

namespace {

// Before any member: the ACL users and the counters below are indexed by the installed table.
NodeOptions installing_commands(NodeOptions options) {
  LOCKCHECK_ASSERT(options.commands != nullptr && "a Node needs a command table");
  install_command_table(*options.commands);
  return options;
}

}  // namespace

Node::Node(NodeOptions options)
    : options_(installing_commands(std::move(options))),
      keyspace_(options_.eviction_seed),
      notifier_([this](const std::string& channel, const std::string& message) { publish(channel, message); }),
      lua_(std::make_unique<LuaEngine>(*this, options_.script_instruction_limit, options_.script_memory_limit_bytes)),
      functions_(std::make_unique<FunctionLibraries>(*lua_)) {
  LOCKCHECK_ASSERT(options_.clock && "a Node needs a clock");
  notifier_.set_downstream(options_.observer);
  keyspace_.set_observer(&notifier_);
  wait_hook_ = [](std::int64_t, std::int64_t, std::int64_t) -> std::int64_t { return 0; };
  start_ms_ = options_.clock();
  stats_.commands = CommandCounters(all_commands().size());
  keep_lfu_counters_for(options_.eviction);
}

void Node::keep_lfu_counters_for(EvictionPolicy policy) {
  LfuSettings settings = keyspace_.lfu();
  settings.enabled = policy == EvictionPolicy::allkeys_lfu || policy == EvictionPolicy::volatile_lfu;
  keyspace_.set_lfu(settings);
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
  keep_lfu_counters_for(policy);
}

Reply Node::execute(const Command& command, Session& session) {
  Outcome outcome;
  Reply reply = execute_command(command, session, outcome);
  const bool counted_by_script = outcome.ran && lua_->take_counted_error();
  if (reply.kind == Reply::Kind::error) count_error(reply, outcome, counted_by_script);
  return reply;
}

void Node::count_error(const Reply& error, const Outcome& outcome, bool already_counted) {
  if (!already_counted) stats_.errors.count(error.text);
  if (outcome.spec == nullptr) return;
  const auto index = static_cast<std::size_t>(outcome.spec - all_commands().data());
  ++(outcome.ran ? stats_.commands.failed : stats_.commands.rejected)[index];
}

Reply Node::execute_command(const Command& command, Session& session, Outcome& outcome) {
  if (command.empty()) return Reply::error("ERR empty command");
  ++stats_.commands_processed;
  const CommandSpec* spec = find_command(command[0]);
  outcome.spec = spec;
  // The order of redis-server's processCommand: QUIT always; unknown command and arity before NOAUTH. A
  // command refused while a transaction is open makes its EXEC fail (EXECABORT).
  if (spec != nullptr && spec->name == "quit") {
    session.close_requested = true;
    return Reply::ok();
  }
  const bool queueing = session.transaction.open;
  if (spec == nullptr) {
    session.transaction.aborted |= queueing;
    return err::unknown_command(command);
  }
  if (!arity_ok(*spec, command.size())) {
    session.transaction.aborted |= queueing;
    return err::arity(spec->name);
  }
  if (auto refused = is_container_command(*spec) ? subcommand_error(command) : std::nullopt) {
    session.transaction.aborted |= queueing;
    if (refused->text.starts_with("ERR unknown subcommand")) outcome.spec = nullptr;  // no command, as in Redis
    return std::move(*refused);
  }
  // processCommand's refusals of EXEC itself come wrapped, as execCommandAbort words them.
  const bool is_exec = spec->name == "exec";
  auto refuse = [this, is_exec, &command, &session](std::string text) {
    if (!is_exec) return Reply::error(std::move(text));
    if (text.starts_with("ERR ")) text.erase(0, 4);
    feed_monitors(session, session.db, command, false);  // execCommandAbort shows the EXEC
    return Reply::error("EXECABORT Transaction discarded because of: " + text);
  };
  // requirepass is the default user's password; a transport hands it over with each connection.
  if (!session.requirepass.empty() && !acl_.requirepass_configured() && session.requirepass != acl_.applied_requirepass()) {
    acl_.apply_requirepass(session.requirepass);
  }
  if (!(spec->flags & kNoAuth) && auth_required(session)) return refuse("NOAUTH Authentication required.");
  session.last_command = spec->name;  // an ACL LOG entry's client info names the refused command
  if (!user_of(session).unrestricted()) {
    if (auto denied = acl_refusal(session, *spec, command, queueing ? AclLogContext::multi : AclLogContext::toplevel)) {
      session.transaction.aborted |= queueing;
      return refuse(std::move(denied->text));
    }
  }
  if (session.resp == 2 && session.subscribed() && !(spec->flags & kPubSub)) {
    return refuse("ERR Can't execute '" + full_command_name(command) +
                        "': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context");
  }
  if (!write_refusal_.empty() && (spec->flags & kWrite)) {
    // Checked before queueing, as processCommand does: the transaction's EXEC then fails (EXECABORT).
    session.transaction.aborted |= queueing;
    return Reply::error(write_refusal_);
  }
  if (lua_->busy() && !allowed_while_busy(*spec, command)) {
    session.transaction.aborted |= queueing;
    Reply busy = err::reply(lua_->running()->is_eval ? err::kBusyEval : err::kBusyFunction);
    // A refused EXEC ends the transaction, naming why (Redis's execCommandAbort).
    if (queueing && spec->name == "exec") return abort_exec(session, command, busy.text);
    return busy;
  }
  if (session.monitor && touches_keyspace(command)) {
    session.transaction.aborted |= queueing;
    return refuse("ERR Replica can't interact with the keyspace");
  }
  if (queueing && !(spec->flags & kNoQueue)) {
    // Queueing may grow memory without bound: while out of memory Redis refuses every queued command.
    if (memory_limited()) {
      keyspace_.begin(options_.clock(), Actor{session.client_id, spec->name, {}});
      if (!make_room()) {
        session.transaction.aborted = true;
        return err::reply(err::kOom);
      }
    }
    session.transaction.queued.push_back(command);
    return Reply::status("QUEUED");
  }
  // A command served while a script is busy must not disturb the script's clock reading and actor.
  // (Plain values, not an optional pair: GCC 12 -O2 then warns maybe-uninitialized inside the optional.)
  const bool in_script = lua_->running();
  const std::int64_t script_now_ms = in_script ? keyspace_.now_ms() : 0;
  const Actor script_actor = in_script ? keyspace_.actor() : Actor{};
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
  if (spec->name == "exec" && queued_deny_oom(session) && !make_room()) return abort_exec(session, command, err::kOom);
  ++stats_.commands.calls[static_cast<std::size_t>(spec - all_commands().data())];
  outcome.ran = true;
  notifier_.set_arguments(&command);
  Session* previous = script_session_;
  script_session_ = &session;
  ++depth_;
  CommandContext context{*this, keyspace_, session, command, false, session.resp};
  // Without a monitor (every simulated node) MONITOR's rules are not looked up: only MONITOR adds one, and
  // it is hidden itself.
  const bool monitored = !monitors_.empty();
  const bool shown = monitored && !hidden_from_monitors(command);
  if (monitored && !shown && fed_before_running(command)) feed_monitors(session, session.db, command, false);
  Reply reply = spec->handler(context);
  if (shown) feed_monitors(session, session.db, command, false);  // after it ran, as call() does
  --depth_;
  script_session_ = previous;
  if (cluster_ && spec->name != "asking") session.asking = false;
  notifier_.set_arguments(nullptr);
  if (in_script) keyspace_.begin(script_now_ms, script_actor);
  if (session.resp != 3) {
    to_resp2(reply);
    for (Reply& extra : session.extra_replies) to_resp2(extra);
  }
  serve_blocked();  // this command may have filled a key someone waits on
  keyspace_.settle_encodings(encoding_limits_);
  return reply;
}

Dataset Node::snapshot() const {
  Dataset dataset = keyspace_.dataset();
  dataset.functions = functions_->codes();
  return dataset;
}

void Node::restore(Dataset dataset) {
  std::map<std::string, std::string> functions = std::move(dataset.functions);
  keyspace_.restore(std::move(dataset));
  functions_->restore(functions);
}

bool Node::service_while_busy() { return busy_servicer_ ? busy_servicer_() : true; }

std::int64_t Node::busy_reply_threshold_ms() const {
  return parse_int64(config_.value("busy-reply-threshold")).value_or(5000);
}

Reply Node::run_queued(const Command& command, Session& session) {
  const CommandSpec* spec = find_command(command[0]);
  LOCKCHECK_ASSERT(spec != nullptr && "only known commands are queued");
  // Same clock reading as EXEC itself: the transaction runs at one instant, as a script does.
  keyspace_.set_actor(Actor{session.client_id, spec->name, {}});
  keyspace_.select(session.db);  // a queued script's SELECT does not carry over to the next command
  // No OOM check here: EXEC was refused up front if a queued command may grow memory (Redis 7.0).
  // The user's rules may have changed since the command was queued: checked again (7.0's execCommand).
  if (!user_of(session).unrestricted()) {
    const AclVerdict verdict = acl_check(user_of(session), command, (spec->flags & kNoAuth) != 0);
    if (!verdict.allowed()) {
      log_acl_denial(session, verdict, command, AclLogContext::multi);
      Reply refused = Reply::error(
          std::string("NOPERM ACLs rules changed between the moment the transaction was accumulated and the EXEC "
                      "call. This command is no longer allowed for the following reason: ") +
          acl_exec_reason(verdict.denial));
      count_error(refused, Outcome{spec, false}, false);
      return refused;
    }
  }
  CommandContext context{*this, keyspace_, session, command, false, session.resp};
  ++stats_.commands.calls[static_cast<std::size_t>(spec - all_commands().data())];
  notifier_.set_arguments(&command);  // LMOVE's sides, ZADD's INCR: the queued command's, not EXEC's
  const bool monitored = !monitors_.empty();  // MONITOR is refused inside EXEC, so none appears meanwhile
  const bool shown = monitored && !hidden_from_monitors(command);
  if (monitored && !shown && fed_before_running(command)) feed_monitors(session, session.db, command, false);
  Reply reply = spec->handler(context);
  if (shown) feed_monitors(session, session.db, command, false);
  notifier_.set_arguments(nullptr);
  if (reply.kind == Reply::Kind::error) count_error(reply, Outcome{spec, true}, lua_->take_counted_error());
  keyspace_.settle_encodings(encoding_limits_);  // each queued command converts what it grew, as it would alone
  return reply;
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
  Outcome outcome;
  Reply reply = script_command(command, read_only, allow_oom, outcome);
  if (reply.kind == Reply::Kind::error) count_error(reply, outcome, false);
  return reply;
}

Reply Node::script_command(const Command& command, bool read_only, bool allow_oom, Outcome& outcome) {
  LOCKCHECK_ASSERT(script_session_ != nullptr && depth_ > 0);
  const CommandSpec* spec = find_command(command[0]);
  outcome.spec = spec;
  if (spec == nullptr) return Reply::error("ERR Unknown Redis command called from script");
  if (!arity_ok(*spec, command.size())) return Reply::error("ERR Wrong number of args calling Redis command from script");
  if ((spec->flags & kNoScript) || (spec->name == "cluster" && subcommand_denied_in_scripts(command))) {
    return Reply::error("ERR This Redis command is not allowed from script");
  }
  if (!user_of(*script_session_).unrestricted()) {
    const AclVerdict verdict = acl_check(user_of(*script_session_), command, (spec->flags & kNoAuth) != 0);
    if (!verdict.allowed()) {
      log_acl_denial(*script_session_, verdict, command, AclLogContext::lua);
      return Reply::error(std::string("ERR The user executing the script ") + acl_error_message(verdict.denial));
    }
  }
  if (read_only && (spec->flags & kWrite)) return Reply::error("ERR Write commands are not allowed from read-only scripts.");
  if (!write_refusal_.empty() && (spec->flags & kWrite)) return Reply::error(write_refusal_);
  if (spec->flags & kWrite) lua_->note_write();  // from now on SCRIPT KILL answers UNKILLABLE
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
    ++stats_.commands.calls[static_cast<std::size_t>(spec - all_commands().data())];
    outcome.ran = true;
    CommandContext context{*this, keyspace_, *script_session_, command, true, resp};
    reply = spec->handler(context);
    if (!monitors_.empty() && !hidden_from_monitors(command)) {
      feed_monitors(*script_session_, keyspace_.selected(), command, true);
    }
    keyspace_.settle_encodings(encoding_limits_);
    notifier_.set_arguments(nullptr);
    if (resp != 3) to_resp2(reply);
  }
  keyspace_.set_actor(outer);
  return reply;
}

bool Node::make_room() {
  if (maxmemory_bytes_ > 0) {
    // Each round removes a key, so at most size() rounds; noeviction removes none.
    for (std::size_t round = 0, limit = keyspace_.size() + 1;
         round < limit && used_memory_estimate() > maxmemory_bytes_ && options_.eviction != EvictionPolicy::noeviction;
         ++round) {
      if (!keyspace_.evict_one(options_.eviction)) break;
    }
    if (used_memory_estimate() > maxmemory_bytes_) return false;
  }
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

namespace {

std::set<std::string>& subscriptions_of(Session& session, SubscriptionKind kind) {
  switch (kind) {
    case SubscriptionKind::channel: return session.channels;
    case SubscriptionKind::pattern: return session.patterns;
    case SubscriptionKind::shard: return session.shard_channels;
  }
  return session.channels;
}

// The count a confirmation carries: channels and patterns together, shard channels apart (as 7.0 counts).
std::int64_t confirmation_count(const Session& session, SubscriptionKind kind) {
  if (kind == SubscriptionKind::shard) return static_cast<std::int64_t>(session.shard_channels.size());
  return static_cast<std::int64_t>(session.channels.size() + session.patterns.size());
}

const char* confirmation_word(SubscriptionKind kind, bool subscribing) {
  switch (kind) {
    case SubscriptionKind::channel: return subscribing ? "subscribe" : "unsubscribe";
    case SubscriptionKind::pattern: return subscribing ? "psubscribe" : "punsubscribe";
    case SubscriptionKind::shard: return subscribing ? "ssubscribe" : "sunsubscribe";
  }
  return "";
}

}  // namespace

void Node::disconnect(Session& session) {
  blocked_.remove(session.client_id);
  session.blocked = false;
  unwatch_all(session);
  session.transaction = {};
  std::erase(monitors_, session.client_id);
  session.monitor = false;
  session.db = 0;  // a session reused for a new connection starts in db 0, as a new connection does
  for (SubscriptionKind kind : {SubscriptionKind::channel, SubscriptionKind::pattern, SubscriptionKind::shard}) {
    std::set<std::string>& names = subscriptions_of(session, kind);
    for (const std::string& name : names) pubsub_.remove(kind, name, session.client_id);
    names.clear();
  }
}

std::int64_t Node::publish(const std::string& channel, const std::string& message) {
  const std::int64_t receivers = deliver_published(channel, message);
  if (publish_bus_) publish_bus_(channel, message);
  return receivers;
}

std::int64_t Node::deliver_published(const std::string& channel, const std::string& message) {
  const std::vector<Delivery> deliveries = pubsub_.published(channel, message);
  send(deliveries);
  return static_cast<std::int64_t>(deliveries.size());
}

std::int64_t Node::shard_publish(const std::string& channel, const std::string& message) {
  const std::vector<Delivery> deliveries = pubsub_.shard_published(channel, message);
  send(deliveries);
  return static_cast<std::int64_t>(deliveries.size());
}

// The deliveries are computed before any is sent: a sink may unsubscribe someone while we deliver.
void Node::send(const std::vector<Delivery>& deliveries) {
  if (!publish_sink_) return;
  for (const auto& [client_id, push] : deliveries) publish_sink_(client_id, push);
}

Reply Node::subscribe(Session& session, const Command& command, SubscriptionKind kind) {
  session.replies_are_pushes = true;
  std::vector<Reply> confirmations;
  std::set<std::string>& names = subscriptions_of(session, kind);
  for (std::size_t i = 1; i < command.size(); ++i) {
    names.insert(command[i]);
    pubsub_.add(kind, command[i], session.client_id);
    confirmations.push_back(Reply::push({Reply::bulk(confirmation_word(kind, true)), Reply::bulk(command[i]),
                                          Reply::integer_reply(confirmation_count(session, kind))}));
  }
  for (std::size_t i = 1; i < confirmations.size(); ++i) session.extra_replies.push_back(std::move(confirmations[i]));
  return std::move(confirmations.front());
}

Reply Node::unsubscribe(Session& session, const Command& command, SubscriptionKind kind) {
  session.replies_are_pushes = true;
  std::set<std::string>& names = subscriptions_of(session, kind);
  std::vector<std::string> chosen(command.begin() + 1, command.end());
  if (chosen.empty()) chosen.assign(names.begin(), names.end());
  const char* word = confirmation_word(kind, false);
  if (chosen.empty()) {
    return Reply::push({Reply::bulk(word), Reply::nil(), Reply::integer_reply(confirmation_count(session, kind))});
  }
  std::vector<Reply> confirmations;
  for (const std::string& name : chosen) {
    names.erase(name);
    pubsub_.remove(kind, name, session.client_id);
    confirmations.push_back(
        Reply::push({Reply::bulk(word), Reply::bulk(name), Reply::integer_reply(confirmation_count(session, kind))}));
  }
  for (std::size_t i = 1; i < confirmations.size(); ++i) session.extra_replies.push_back(std::move(confirmations[i]));
  return std::move(confirmations.front());
}

std::int64_t Node::used_memory_estimate() const {
  constexpr std::int64_t kStartup = 876'096;  // redis-server 7.0.15's used_memory_startup
  std::int64_t bytes = kStartup + static_cast<std::int64_t>(lua_->memory_used_bytes());
  for (const Database& db : keyspace_.dataset().dbs) {
  for (const auto& [key, entry] : db.entries) {
    bytes += key_memory_bytes(key, entry.value);
  }
  }
  return bytes;
}

Reply Node::abort_exec(Session& session, const Command& exec, std::string_view why) {
  feed_monitors(session, session.db, exec, false);  // execCommandAbort: the monitors see the transaction end
  session.transaction = {};
  unwatch_all(session);
  return Reply::error("EXECABORT Transaction discarded because of: " + std::string(why));
}

bool Node::queued_deny_oom(const Session& session) const {
  if (!session.transaction.open || !memory_limited()) return false;
  for (const Command& queued : session.transaction.queued) {
    char name_buffer[32];
    const CommandSpec* spec = find_command(lower_into(queued[0], name_buffer));
    if (spec != nullptr && (spec->flags & kDenyOom)) return true;
  }
  return false;
}

void Node::config_changed() {
  maxmemory_bytes_ = parse_int64(config_.value("maxmemory")).value_or(0);
  const std::string& policy = config_.value("maxmemory-policy");
  if (policy == "allkeys-random") options_.eviction = EvictionPolicy::allkeys_random;
  else if (policy == "allkeys-lru") options_.eviction = EvictionPolicy::allkeys_lru;
  else if (policy == "allkeys-lfu") options_.eviction = EvictionPolicy::allkeys_lfu;
  else if (policy == "volatile-lfu") options_.eviction = EvictionPolicy::volatile_lfu;
  else options_.eviction = EvictionPolicy::noeviction;
  auto limit = [this](std::string_view name) { return parse_int64(config_.value(name)).value_or(0); };
  keyspace_.set_lfu(LfuSettings{.enabled = policy.find("lfu") != std::string::npos,
                                .log_factor = limit("lfu-log-factor"),
                                .decay_minutes = limit("lfu-decay-time")});
  keyspace_.set_eviction_samples(static_cast<std::size_t>(limit("maxmemory-samples")));
  encoding_limits_.hash_max_listpack_entries = limit("hash-max-listpack-entries");
  encoding_limits_.hash_max_listpack_value = limit("hash-max-listpack-value");
  encoding_limits_.set_max_intset_entries = limit("set-max-intset-entries");
  encoding_limits_.zset_max_listpack_entries = limit("zset-max-listpack-entries");
  encoding_limits_.zset_max_listpack_value = limit("zset-max-listpack-value");
  encoding_limits_.stream_node.max_entries = limit("stream-node-max-entries");
  encoding_limits_.stream_node.max_bytes = limit("stream-node-max-bytes");
  if (config_.value("requirepass") != acl_.applied_requirepass()) {
    acl_.apply_requirepass(config_.value("requirepass"));
    acl_.mark_requirepass_configured();
  }
  acl_.set_log_max_entries(static_cast<std::size_t>(limit("acllog-max-len")));
}

std::int64_t Node::wait_replicas(std::int64_t client_id, std::int64_t numreplicas, std::int64_t timeout_ms) {
  return wait_hook_ ? wait_hook_(client_id, numreplicas, timeout_ms) : 0;
}

}  // namespace lockcheck::mock
