#include "node_observer.hpp"

#include <hiredis/hiredis.h>
#include <poll.h>
#include <sys/ioctl.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "core/hash_holders.hpp"

namespace lockcheck::redis_backend {
namespace {

constexpr const char* kMarkerChannel = "lockcheck:marker";
constexpr const char* kKeyeventPrefix = "__keyevent@0__:";

struct ReplyDeleter {
  void operator()(redisReply* reply) const { freeReplyObject(reply); }
};
using ReplyPtr = std::unique_ptr<redisReply, ReplyDeleter>;

redisContext* connect(int port) {
  const timeval timeout{2, 0};
  redisContext* context = redisConnectWithTimeout("127.0.0.1", port, timeout);
  if (context == nullptr || context->err != 0) {
    if (context != nullptr) redisFree(context);
    throw std::runtime_error("observer: cannot connect to 127.0.0.1:" + std::to_string(port));
  }
  redisSetTimeout(context, timeout);
  return context;
}

std::string text_of(const redisReply* reply) {
  if (reply == nullptr) return {};
  if (reply->type == REDIS_REPLY_STRING || reply->type == REDIS_REPLY_STATUS) return std::string(reply->str, reply->len);
  if (reply->type == REDIS_REPLY_INTEGER) return std::to_string(reply->integer);
  return {};
}

bool is_removal(const std::string& event) { return event == "del" || event == "expired" || event == "evicted"; }
bool is_hash_write(const std::string& event) {
  return event == "hset" || event == "hsetnx" || event == "hincrby" || event == "hincrbyfloat" || event == "hdel";
}
bool is_write(const std::string& event) { return event == "set" || is_hash_write(event); }

}  // namespace

struct NodeObserver::Notification {
  std::int64_t t_us;
  std::int64_t since_us;
  std::string event;  // the keyevent name: set, expire, del, expired, ...
  std::string key;
};

struct NodeObserver::Connections {
  redisContext* subscriber = nullptr;
  redisContext* reader = nullptr;
  ~Connections() {
    if (subscriber != nullptr) redisFree(subscriber);
    if (reader != nullptr) redisFree(reader);
  }
};

NodeObserver::NodeObserver(int node, int port, std::set<std::string> keys, const TimeBase& time, RecordSink& sink)
    : node_(node), port_(port), keys_(std::move(keys)), time_(time), sink_(sink), connections_(std::make_unique<Connections>()) {
  connections_->subscriber = connect(port_);
  connections_->reader = connect(port_);
  for (const char* command : {"PSUBSCRIBE __keyevent@0__:*", "SUBSCRIBE lockcheck:marker"}) {
    ReplyPtr reply(static_cast<redisReply*>(redisCommand(connections_->subscriber, command)));
    if (!reply || reply->type == REDIS_REPLY_ERROR) throw std::runtime_error("observer: subscribe failed");
  }
  // The initial state: the first marker's read. Events before it are part of that state, not recorded.
  const std::uint64_t first = request_read();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (std::chrono::steady_clock::now() < deadline) {
    void* raw = nullptr;
    if (redisGetReply(connections_->subscriber, &raw) != REDIS_OK || raw == nullptr) break;
    ReplyPtr reply(static_cast<redisReply*>(raw));
    if (reply->type == REDIS_REPLY_ARRAY && reply->elements == 3 && text_of(reply->element[0]) == "message" &&
        text_of(reply->element[2]) == std::to_string(first)) {
      initial_ = reads_.at(first).state;
      resolved_issued_us_ = reads_.at(first).issued_us;
      state_ = initial_;
      reads_.clear();
      thread_ = std::thread([this] { loop(); });
      return;
    }
  }
  throw std::runtime_error("observer: no marker from node " + std::to_string(node_));
}

NodeObserver::~NodeObserver() { stop(); }

void NodeObserver::stop() {
  stopping_ = true;
  if (thread_.joinable()) thread_.join();
}

std::map<std::string, KeyState> NodeObserver::last_state() const {
  std::lock_guard lock(state_mutex_);
  return state_;
}

std::uint64_t NodeObserver::request_read() {
  redisContext* reader = connections_->reader;
  const std::uint64_t marker = next_marker_++;
  const std::int64_t issued_us = time_.now_us();
  redisAppendCommand(reader, "MULTI");
  for (const std::string& key : keys_) {
    redisAppendCommand(reader, "GET %b", key.data(), key.size());
    redisAppendCommand(reader, "PEXPIRETIME %b", key.data(), key.size());
    redisAppendCommand(reader, "HKEYS %b", key.data(), key.size());  // WRONGTYPE on a string: fine
  }
  redisAppendCommand(reader, "TIME");
  redisAppendCommand(reader, "PUBLISH %s %llu", kMarkerChannel, static_cast<unsigned long long>(marker));
  redisAppendCommand(reader, "EXEC");
  const std::size_t queued = 3 * keys_.size() + 3;  // MULTI and every queued command answer first
  for (std::size_t i = 0; i < queued; ++i) {
    void* raw = nullptr;
    if (redisGetReply(reader, &raw) != REDIS_OK) throw std::runtime_error("observer: read failed");
    freeReplyObject(raw);
  }
  void* raw = nullptr;
  if (redisGetReply(reader, &raw) != REDIS_OK || raw == nullptr) throw std::runtime_error("observer: read failed");
  ReplyPtr exec(static_cast<redisReply*>(raw));
  if (exec->type != REDIS_REPLY_ARRAY || exec->elements != 3 * keys_.size() + 2) {
    throw std::runtime_error("observer: unexpected EXEC reply");
  }
  std::map<std::string, KeyState> state;
  std::size_t index = 0;
  for (const std::string& key : keys_) {
    const redisReply* value = exec->element[index++];
    const redisReply* expire = exec->element[index++];
    const redisReply* fields = exec->element[index++];
    KeyState& entry = state[key];
    if (fields->type == REDIS_REPLY_ARRAY) {
      for (std::size_t f = 0; f < fields->elements; ++f) entry.fields.push_back(text_of(fields->element[f]));
    }
    entry.present = value->type != REDIS_REPLY_NIL;  // an error (WRONGTYPE) means a non-string lock: present
    entry.value = value->type == REDIS_REPLY_STRING ? text_of(value) : "";
    entry.expire_at_ms = expire->type == REDIS_REPLY_INTEGER && expire->integer >= 0 ? expire->integer : -1;
  }
  const redisReply* time = exec->element[index];
  std::int64_t node_ms = 0;
  if (time->type == REDIS_REPLY_ARRAY && time->elements == 2) {
    node_ms = std::stoll(text_of(time->element[0])) * 1000 + std::stoll(text_of(time->element[1])) / 1000;
  }
  reads_[marker] = Read{std::move(state), node_ms, issued_us};
  return marker;
}

void NodeObserver::loop() {
  observe();
  // Notifications whose state was never read (the node went away, or the run ended first).
  unobserved_ += static_cast<std::int64_t>(pending_.size());
}

void NodeObserver::observe() {
  redisContext* subscriber = connections_->subscriber;
  // When the bytes being parsed reached us: after `fill_lo` (the socket was last seen empty then) and by
  // `fill_hi` (when they were read). Redis writes a notification in the same event-loop pass as the reply to
  // the client that caused it, so that client's operation completed after fill_lo too. Bytes left over from
  // the constructor's reads came after the initial read was sent.
  std::int64_t socket_empty_us = resolved_issued_us_;
  std::int64_t fill_lo = resolved_issued_us_, fill_hi = time_.now_us();
  // Bounded by the run: stop() ends it, and a lost connection (the node crashed) ends it at once.
  while (!stopping_) {
    void* raw = nullptr;
    if (redisReaderGetReply(subscriber->reader, &raw) != REDIS_OK) return;
    if (raw == nullptr) {
      pollfd wait{subscriber->fd, POLLIN, 0};
      // A short wait keeps `fill_lo` close to the bytes' arrival (and the attribution window narrow).
      const int ready = poll(&wait, 1, 2);
      const std::int64_t now = time_.now_us();
      if (ready <= 0) {
        socket_empty_us = now;
        continue;
      }
      if (redisBufferRead(subscriber) != REDIS_OK) return;
      fill_lo = socket_empty_us;
      fill_hi = now;
      int left = 0;
      if (ioctl(subscriber->fd, FIONREAD, &left) == 0 && left == 0) socket_empty_us = now;
      continue;
    }
    ReplyPtr reply(static_cast<redisReply*>(raw));
    if (reply->type != REDIS_REPLY_ARRAY || reply->elements < 3) continue;
    const std::string type = text_of(reply->element[0]);
    try {
      if (type == "pmessage" && reply->elements == 4) {
        const std::string channel = text_of(reply->element[2]);
        const std::string key = text_of(reply->element[3]);
        if (keys_.count(key) == 0 || channel.rfind(kKeyeventPrefix, 0) != 0) continue;
        pending_.push_back(Notification{fill_hi, std::max(resolved_issued_us_, fill_lo),
                                        channel.substr(std::string(kKeyeventPrefix).size()), key});
        if (!outstanding_) outstanding_ = request_read();
      } else if (type == "message") {
        const std::uint64_t marker = std::stoull(text_of(reply->element[2]));
        resolve(marker);
        outstanding_.reset();
        if (!pending_.empty()) outstanding_ = request_read();
      }
    } catch (const std::exception&) {
      return;  // the node went away mid-read: what was pending stays unobserved
    }
  }
}

bool NodeObserver::removed_later_in_batch(std::size_t index) const {
  for (std::size_t later = index + 1; later < pending_.size(); ++later) {
    if (pending_[later].key != pending_[index].key) continue;
    if (is_removal(pending_[later].event)) return true;
    if (pending_[later].event != "expire") return false;  // written again: not a simple transient
  }
  return false;
}

void NodeObserver::resolve(std::uint64_t marker) {
  auto read = reads_.find(marker);
  if (read == reads_.end()) return;
  const std::map<std::string, KeyState>& after = read->second.state;
  const std::int64_t node_ms = read->second.node_ms;
  std::lock_guard lock(state_mutex_);
  for (std::size_t j = 0; j < pending_.size(); ++j) {
    const Notification& note = pending_[j];
    // SET k v PX n notifies `set` then `expire`: one write, judged once.
    if (note.event == "expire" && j > 0 && is_write(pending_[j - 1].event) && pending_[j - 1].key == note.key) continue;
    bool last_for_key = true;
    for (std::size_t later = j + 1; later < pending_.size(); ++later) {
      const bool same_write = pending_[later].event == "expire" && later == j + 1 && is_write(note.event);
      if (pending_[later].key == note.key && !same_write) last_for_key = false;
    }
    KeyState& tracked = state_[note.key];
    const KeyState& read_state = after.at(note.key);
    std::string event;
    if (note.event == "set") event = tracked.present ? "overwritten" : "created";
    else if (is_hash_write(note.event)) event = tracked.present ? "modified" : "created";
    else if (note.event == "expire") event = "expire_set";
    else if (note.event == "persist") event = "expire_removed";
    else if (note.event == "del") event = "deleted";
    else if (note.event == "expired") event = "expired";
    else if (note.event == "evicted") event = "evicted";
    else {
      ++unobserved_;  // a command the checkers have no event for (RENAME, ...): the server view is incomplete
      continue;
    }
    KeyState post;
    bool unread = false;
    if (!is_removal(note.event)) {
      if (last_for_key) {
        post = read_state;
      } else {
        post.present = true;
        unread = true;
        // Changed again before the read: this write's value and deadline were never seen. Harmless when the
        // key is gone again within the same read (a Redlock attempt that cleans up its partial locks): the
        // instance lived less than a read's round trip and its owner is attributed from the operations.
        if (!removed_later_in_batch(j)) ++unobserved_;
      }
    }
    Json fields{{"node", node_}, {"event", event}, {"key", note.key}, {"value", post.present ? post.value : ""},
                {"by", -1}, {"command", ""}, {"notification", note.event}, {"since_us", note.since_us},
                {"node_time_ms", node_ms}};
    fields["expire_at_ms"] = is_removal(note.event) ? (note.event == "expired" ? tracked.expire_at_ms : -1) : post.expire_at_ms;
    if (unread) fields["state_unread"] = true;
    if (!post.fields.empty()) fields["fields"] = post.fields;
    // The simulator's rule for read-write hashes (a field per holder), so the checker sees every holder.
    if (auto holders = sim::holders_json(post.fields)) fields["holders"] = std::move(*holders);
    sink_.add(note.t_us, "server", std::move(fields));
    tracked = post;
  }
  for (const auto& [key, state] : after) state_[key] = state;
  pending_.clear();
  resolved_issued_us_ = read->second.issued_us;
  reads_.erase(read);
}

}  // namespace lockcheck::redis_backend
