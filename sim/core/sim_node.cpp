#include "core/sim_node.hpp"

#include "model/hash_holders.hpp"
#include "redis/server/node.hpp"
#include "redis/util/text.hpp"
#include "lockcheck/assert.hpp"

#include <string_view>

namespace lockcheck::sim {
namespace {

// The run's policy names the same five as the mock's: the model stands below the mock and does not include it.
mock::EvictionPolicy mock_eviction(EvictionPolicy policy) {
  switch (policy) {
    case EvictionPolicy::noeviction: return mock::EvictionPolicy::noeviction;
    case EvictionPolicy::allkeys_random: return mock::EvictionPolicy::allkeys_random;
    case EvictionPolicy::allkeys_lru: return mock::EvictionPolicy::allkeys_lru;
    case EvictionPolicy::allkeys_lfu: return mock::EvictionPolicy::allkeys_lfu;
    case EvictionPolicy::volatile_lfu: return mock::EvictionPolicy::volatile_lfu;
  }
  LOCKCHECK_ASSERT(false && "a policy is one of the five the switch names");  // unreachable
  return mock::EvictionPolicy::noeviction;
}

}  // namespace

SimNode::SimNode(int id, const NodeConfig& config, History& history, const Scheduler& scheduler)
    : id_(id),
      history_(history),
      scheduler_(scheduler),
      clock_(config.clock.wall_offset_us, config.clock.drift_ppm),
      replica_of_(config.replica_of),
      at_crash_(std::make_unique<mock::Dataset>()),
      fsynced_(std::make_unique<mock::Dataset>()) {
  LOCKCHECK_ASSERT(id >= 0 && config.replica_of != id);  // a node replicates another node, never itself
  mock::NodeOptions options;
  options.clock = [this] { return clock_.wall_at(scheduler_.now()) / 1000; };
  options.observer = this;
  options.maxmemory_keys = config.maxmemory_keys;
  options.eviction = mock_eviction(config.eviction);
  options.eviction_seed = 0x5eed + static_cast<std::uint64_t>(id);
  node_ = std::make_unique<mock::Node>(std::move(options));
  // The mock answers WAIT synchronously; the world defers the reply until replicas acknowledge.
  node_->set_wait_hook([this](std::int64_t, std::int64_t numreplicas, std::int64_t timeout_ms) -> std::int64_t {
    wait_request_ = WaitRequest{numreplicas, timeout_ms};
    return 0;
  });
  // Blocking pops answer late: the world sends these replies through the network (world.cpp).
  node_->set_unblock_sink([this](std::int64_t client_id, const Reply& reply) {
    late_replies_.emplace_back(static_cast<int>(client_id), reply);
  });
}

bool SimNode::blocked(int process) const {
  auto it = sessions_.find(process);
  return it != sessions_.end() && it->second->blocked;
}

void SimNode::expire_blocked() {
  if (!up_) return;
  node_->expire_blocked();
  flush_events();
}

void SimNode::on_key_event(const mock::KeyEvent& event) {
  std::string command = mock::to_upper(event.command);  // ASCII, as std::toupper in the C locale the simulator runs in
  pending_.push_back(PendingEvent{event.kind, std::string(event.key), event.node_time_ms, event.client_id,
                                  std::move(command), std::string(event.script_sha), event.expire_at_ms});
}

namespace {

// A key's value as the history names it: a string lock's value, or the one field of a single-field hash
// (reentrant-hash, redisson-like: hold field -> hold count), which names the owner as a string lock's value
// does. Hashes with several fields name no single owner; a read-write lock's holders go to `holders` instead
// (holders_of).
// A view into `value`: valid while the value is (a recorded line copies it; a token would allocate as a string).
std::string_view owner_text(const mock::Value& value) {
  if (const auto* text = std::get_if<std::string>(&value)) return *text;
  if (const auto* hash = std::get_if<mock::Hash>(&value); hash != nullptr && hash->size() == 1) {
    return hash->front().first;
  }
  return {};
}

// A hash's fields as the history's holders (core/hash_holders.hpp); none for a string or another type.
std::optional<Json> holders_of(const mock::Value& value) {
  const auto* hash = std::get_if<mock::Hash>(&value);
  if (hash == nullptr) return std::nullopt;
  LOCKCHECK_ASSERT(!hash->empty());  // Redis keeps no empty hash: removing its last field deletes the key
  std::vector<std::string> names;
  names.reserve(hash->size());
  for (const auto& [field, value] : *hash) names.push_back(field);
  return holders_json(names);
}

}  // namespace

const mock::Entry* SimNode::stored_entry(const std::string& key) const {
  const auto& entries = node_->keyspace().database(0).entries;
  const auto it = entries.find(key);
  return it == entries.end() ? nullptr : &it->second;
}

bool SimNode::has_key(const std::string& key) const {
  const mock::Entry* entry = stored_entry(key);
  return entry != nullptr && (!entry->expire_at_ms || *entry->expire_at_ms >= node_->now_ms());
}

bool SimNode::evict(const std::string& key) {
  const bool evicted = node_->evict_key(key);
  flush_events();  // written now, not with a later command's events (nor never, on a replica)
  return evicted;
}

bool SimNode::evict_one() {
  const bool evicted = node_->evict_one();
  flush_events();
  return evicted;
}

void SimNode::flush_events() {
  for (auto& event : pending_) {
    // A key expires only past its deadline on the node clock (what the checkers' "expired" causes rest on).
    LOCKCHECK_ASSERT(event.kind != mock::KeyEventKind::expired || event.node_time_ms > event.expire_at_ms);
    const bool key_gone = event.kind == mock::KeyEventKind::deleted || event.kind == mock::KeyEventKind::expired ||
                          event.kind == mock::KeyEventKind::evicted;
    // One lookup of the key for its value, holders and deadline.
    const mock::Entry* entry = key_gone ? nullptr : stored_entry(event.key);
    HistoryLine fields(scheduler_.now(), "server");
    fields.add("node", id_).add("event", mock::to_string(event.kind)).add("key", event.key);
    fields.add("value", entry != nullptr ? owner_text(entry->value) : std::string_view()).add("by", event.client_id);
    fields.add("command", event.command);
    // Several holders in one hash (read-write locks): each field names one, so the checker sees them all.
    if (entry != nullptr) {
      if (auto holders = holders_of(entry->value)) fields.add("holders", *holders);
    }
    if (!event.script_sha.empty()) fields.add("script", event.script_sha);
    fields.add("node_time_ms", event.node_time_ms);
    std::int64_t expire_at_ms = -1;
    if (key_gone) {
      if (event.kind == mock::KeyEventKind::expired) expire_at_ms = event.expire_at_ms;
    } else if (entry != nullptr && entry->expire_at_ms) {
      expire_at_ms = *entry->expire_at_ms;
    }
    fields.add("expire_at_ms", expire_at_ms);
    history_.record(std::move(fields));
  }
  pending_.clear();
}

Reply SimNode::execute(int process, const Command& command, bool& changed) {
  // A node runs commands only while up (World::deliver refuses them at a crashed one), each on a session of
  // an existing process.
  LOCKCHECK_ASSERT(up_ && process >= 0 && process < kSubscriberSession);
  using namespace std::string_view_literals;  // sized literals: most commands fail on the length
  const std::string_view name = command.empty() ? std::string_view() : std::string_view(command[0]);
  const bool subscribing = name == "SUBSCRIBE"sv || name == "subscribe"sv || name == "SSUBSCRIBE"sv || name == "ssubscribe"sv;
  const int session_id = subscribing ? process + kSubscriberSession : process;
  std::unique_ptr<mock::Session>& slot = sessions_[session_id];
  if (!slot) {
    slot = std::make_unique<mock::Session>();
    if (!subscribing) ++sessions_opened_[process];
  }
  slot->client_id = session_id;
  return run_on(*slot, command, changed);
}

Reply SimNode::run_on(mock::Session& session, const Command& command, bool& changed) {
  const std::uint64_t functions_before = node_->functions().version();
  Reply reply = node_->execute(command, session);
  session.extra_replies.clear();
  // FUNCTION LOAD/DELETE/FLUSH change no key but are replicated, as in Redis.
  changed = !pending_.empty() || node_->functions().version() != functions_before;
  flush_events();
  return reply;
}

SimNode::~SimNode() = default;

std::uint64_t SimNode::session_epoch(int process) const {
  const auto it = sessions_opened_.find(process);
  return (crashes_ << 32) ^ (it == sessions_opened_.end() ? 0 : it->second);
}

std::optional<std::int64_t> SimNode::next_block_deadline_ms() const { return node_->next_block_deadline_ms(); }

std::int64_t SimNode::node_time_ms() const { return node_->now_ms(); }

void SimNode::fsync() { *fsynced_ = node_->snapshot(); }

void SimNode::close_connections(int process) {
  LOCKCHECK_ASSERT(process >= 0 && process < kSubscriberSession);  // its two session ids stay apart
  end_dropped_connection(process, kCrashedConnection);  // a crash before: that connection has ended
  retire_command_session(process, kCrashedConnection);
  // A subscribed connection ends at once: nothing a dead subscriber sent changes data.
  if (const auto it = sessions_.find(process + kSubscriberSession); it != sessions_.end()) {
    node_->disconnect(*it->second);
    sessions_.erase(it);
  }
}

bool SimNode::retire_command_session(int process, std::uint64_t connection) {
  LOCKCHECK_ASSERT(closing_.count({process, connection}) == 0);  // a connection ends once
  const auto it = sessions_.find(process);
  if (it == sessions_.end()) return false;
  if (it->second->blocked) {
    node_->disconnect(*it->second);  // the server frees a blocked client at the connection's end
  } else {
    closing_[{process, connection}] = std::move(it->second);  // what is still on its way runs on it
  }
  sessions_.erase(it);
  return true;
}

void SimNode::end_closing_connection(int process) {
  // Bounded: each pass erases one of the process's entries.
  for (auto it = closing_.lower_bound({process, 0}); it != closing_.end() && it->first.first == process;) {
    node_->disconnect(*it->second);
    it = closing_.erase(it);
  }
}

Reply SimNode::execute_from_crashed(int process, const Command& command, bool& changed) {
  const auto it = closing_.find({process, kCrashedConnection});
  if (it == closing_.end()) return execute(process, command, changed);
  return run_on(*it->second, command, changed);
}

void SimNode::drop_command_connection(int process, std::uint64_t connection) {
  LOCKCHECK_ASSERT(process >= 0 && process < kSubscriberSession && connection != kCrashedConnection);
  if (retire_command_session(process, connection)) return;
  // Nothing sent on it has arrived yet: what is on its way still runs on it.
  auto session = std::make_unique<mock::Session>();
  session->client_id = process;
  closing_[{process, connection}] = std::move(session);
}

void SimNode::end_dropped_connection(int process, std::uint64_t connection) {
  const auto it = closing_.find({process, connection});
  if (it == closing_.end()) return;
  node_->disconnect(*it->second);
  closing_.erase(it);
}

std::optional<Reply> SimNode::execute_on_dropped(int process, std::uint64_t connection, const Command& command,
                                                 bool& changed) {
  LOCKCHECK_ASSERT(up_);  // World::deliver refuses commands at a crashed node
  const auto it = closing_.find({process, connection});
  if (it == closing_.end()) return std::nullopt;
  return run_on(*it->second, command, changed);
}

bool SimNode::active_expiry() {
  if (!up_) return false;
  node_->expire_some(20);
  const bool expired = !pending_.empty();
  flush_events();
  return expired;
}

std::size_t SimNode::migrate_slot_to(int slot, SimNode& target) {
  const std::size_t moved = node_->migrate_slot_keys(slot, target.mock());
  target.flush_events();  // RESTORE there before DEL here, as MIGRATE does
  flush_events();
  return moved;
}

void SimNode::apply_replication(int from, std::uint64_t sequence, mock::Dataset& dataset, bool sole_copy) {
  // A promoted or re-pointed replica has left its old master's stream: what was still in flight is dropped,
  // as when Sentinel re-points the replication link.
  if (!up_ || replica_of_ != from || sequence <= applied_sequence_) return;
  applied_sequence_ = sequence;
  node_->restore(sole_copy ? std::move(dataset) : mock::Dataset(dataset));
}

void SimNode::crash() {
  LOCKCHECK_ASSERT(up_);  // a crash only of a live node
  *at_crash_ = node_->snapshot();
  up_ = false;
  ++crashes_;
  for (auto& [id, session] : sessions_) node_->disconnect(*session);  // connections close: subscriptions end
  sessions_.clear();
  for (auto& [id, session] : closing_) node_->disconnect(*session);
  closing_.clear();
  late_replies_.clear();
}

void SimNode::restart(RestartMode mode, bool record_losses) {
  LOCKCHECK_ASSERT(!up_);  // a restart only of a crashed node
  switch (mode) {
    case RestartMode::kept: node_->restore(*at_crash_); break;
    case RestartMode::lost: node_->restore({}); break;
    case RestartMode::aof_everysec: node_->restore(*fsynced_); break;
  }
  // A replica that lost data acknowledges nothing until its master's stream brings it up to date again.
  if (mode != RestartMode::kept) applied_sequence_ = 0;
  node_->flush_scripts();
  up_ = true;
  if (record_losses) this->record_losses(*at_crash_, id_);
}

void SimNode::record_losses(const mock::Dataset& before, int node_of_record) {
  // The losses are this node's own, or those of the master it has just replaced (it is the master now).
  LOCKCHECK_ASSERT(node_of_record == id_ || replica_of_ < 0);
  const auto& now_entries = node_->keyspace().database(0).entries;
  for (const auto& [key, entry] : before.dbs[0].entries) {
    const auto it = now_entries.find(key);
    if (it != now_entries.end() && it->second.value == entry.value) continue;
    history_.record(scheduler_.now(), "server",
                    Json{{"node", node_of_record}, {"event", "lost"}, {"key", key},
                         {"value", owner_text(entry.value)}, {"by", -1}, {"command", ""},
                         {"node_time_ms", clock_.wall_at(scheduler_.now()) / 1000},
                         {"expire_at_ms", entry.expire_at_ms ? *entry.expire_at_ms : -1}});
  }
}

}  // namespace lockcheck::sim
