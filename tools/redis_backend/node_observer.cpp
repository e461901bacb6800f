#include "node_observer.hpp"

#include <hiredis/hiredis.h>
#include <poll.h>
#include <sys/ioctl.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <stdexcept>
#include <vector>

#include "lockcheck/key_slot.hpp"
#include "monitor_line.hpp"
#include "server_process.hpp"

namespace lockcheck::redis_backend {
namespace {

constexpr const char* kMarkerChannelPrefix = "lockcheck:marker:";
constexpr const char* kKeyeventPrefix = "__keyevent@0__:";
// Markers published by catch_up() from another connection, apart from the state reads' (counted from 1).
constexpr std::uint64_t kCatchUpMarkerBase = std::uint64_t{1} << 62;

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

// A synchronous command during setup; throws on an error reply.
void setup(redisContext* context, const std::vector<std::string>& args) {
  std::vector<const char*> argv;
  std::vector<std::size_t> lengths;
  for (const std::string& arg : args) {
    argv.push_back(arg.data());
    lengths.push_back(arg.size());
  }
  ReplyPtr reply(static_cast<redisReply*>(redisCommandArgv(context, static_cast<int>(argv.size()), argv.data(), lengths.data())));
  if (!reply || reply->type == REDIS_REPLY_ERROR) {
    throw std::runtime_error("observer: " + args.front() + " failed: " + (reply ? text_of(reply.get()) : context->errstr));
  }
}

}  // namespace

struct NodeObserver::Connections {
  redisContext* subscriber = nullptr;  // MONITOR and the subscriptions: the one ordered stream
  redisContext* reader = nullptr;
  ~Connections() {
    if (subscriber != nullptr) redisFree(subscriber);
    if (reader != nullptr) redisFree(reader);
  }
};

NodeObserver::NodeObserver(int node, int port, std::set<std::string> keys, const TimeBase& time, RecordSink& sink, bool cluster,
                           const ServerClock* clock)
    : node_(node), port_(port), keys_(std::move(keys)), cluster_(cluster),
      marker_channel_(kMarkerChannelPrefix + std::to_string(port)), time_(time), clock_(clock), connections_(std::make_unique<Connections>()) {
  connections_->subscriber = connect(port_);
  connections_->reader = connect(port_);
  setup(connections_->reader, {"CLIENT", "SETNAME", kObserverClientName});
  setup(connections_->subscriber, {"CLIENT", "SETNAME", kObserverClientName});
  // The stream's connection is a pub/sub client to Redis: never cut it off for a backlog.
  setup(connections_->subscriber, {"CONFIG", "SET", "client-output-buffer-limit", "pubsub 0 0 0"});
  setup(connections_->subscriber, {"MONITOR"});
  // A MONITOR client may still subscribe (RESP2): its replies and messages then share one stream with the
  // MONITOR lines. Lines and messages before the first marker's read are part of that read's state.
  redisAppendCommand(connections_->subscriber, "PSUBSCRIBE %s*", kKeyeventPrefix);
  redisAppendCommand(connections_->subscriber, "SUBSCRIBE %s", marker_channel_.c_str());
  std::optional<std::uint64_t> first;  // the initial state: the first marker's read, once subscribed
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (std::chrono::steady_clock::now() < deadline) {
    void* raw = nullptr;
    if (redisGetReply(connections_->subscriber, &raw) != REDIS_OK || raw == nullptr) break;
    ReplyPtr reply(static_cast<redisReply*>(raw));
    if (reply->type == REDIS_REPLY_ERROR) throw std::runtime_error("observer: subscribe failed: " + text_of(reply.get()));
    if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 3) continue;
    const std::string type = text_of(reply->element[0]);
    if (!first && type == "subscribe" && text_of(reply->element[1]) == marker_channel_) first = request_read();
    if (first && type == "message" && text_of(reply->element[2]) == std::to_string(*first)) {
      // On a cluster node the first read is one per slot, all sent at once: together they are the state.
      for (const auto& entry : reads_) initial_.insert(entry.second.read.state.begin(), entry.second.read.state.end());
      resolved_issued_us_ = reads_.at(*first).issued_us;
      reads_.clear();
      NodeAttribution::WhenRan when_ran;
      if (clock_ != nullptr) {
        when_ran = [this](std::int64_t node_wall_us, std::int64_t not_before_us) -> std::optional<std::int64_t> {
          const std::int64_t not_before_ns = not_before_us == std::numeric_limits<std::int64_t>::min()
                                                 ? not_before_us
                                                 : time_.start_ns() + not_before_us * 1000;
          const std::optional<std::int64_t> at_ns = clock_->monotonic_ns_when_read(node_wall_us, not_before_ns);
          if (!at_ns) return std::nullopt;
          return (*at_ns - time_.start_ns()) / 1000;
        };
      }
      attribution_ = std::make_unique<NodeAttribution>(
          node_, keys_, initial_, sink, [this](const std::string& address) { return client_name(address); },
          std::move(when_ran));
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

void NodeObserver::drain() {
  // The killed node's sockets are closed: the stream ends once its backlog is read, however far behind the
  // thread is (a loaded machine).
  stop_after(std::nullopt);
}

void NodeObserver::catch_up() {
  const std::uint64_t marker = kCatchUpMarkerBase + next_catch_up_++;
  try {
    run_command(port_, {"PUBLISH", marker_channel_, std::to_string(marker)});
  } catch (const std::exception&) {
    stop_after(std::nullopt);  // the node went away after all: its stream ends
    return;
  }
  // Its message comes after everything the node did before it, in the one ordered stream.
  stop_after(marker);
}

void NodeObserver::stop_after(std::optional<std::uint64_t> marker) {
  // The bound only keeps a hung connection from holding the run forever; what is left unread then is counted by
  // finish() as unobserved.
  constexpr auto kBacklogBound = std::chrono::seconds(60);
  {
    std::unique_lock lock(mutex_);
    done_changed_.wait_for(lock, kBacklogBound, [&] { return done_.load() || (marker && caught_up_to_ >= *marker); });
  }
  stop();
}

std::map<std::string, KeyState> NodeObserver::last_state() const {
  std::lock_guard lock(mutex_);
  return attribution_ ? attribution_->state() : initial_;
}

Gaps NodeObserver::gaps() const {
  std::lock_guard lock(mutex_);
  return attribution_ ? attribution_->gaps() : Gaps{};
}

std::uint64_t NodeObserver::request_read() {
  if (!cluster_) return *read_keys({keys_.begin(), keys_.end()});
  std::map<int, std::vector<std::string>> by_slot;
  for (const std::string& key : keys_) by_slot[key_hash_slot(key)].push_back(key);
  std::optional<std::uint64_t> last;
  for (const auto& [slot, keys] : by_slot) {
    if (std::optional<std::uint64_t> marker = read_keys(keys)) last = marker;
  }
  // No slot of a lock key is served here: a keyless read still places a marker (and the node's time).
  if (!last) last = read_keys({});
  if (!last) throw std::runtime_error("observer: node " + std::to_string(node_) + " refused a keyless read");
  return *last;
}

std::optional<std::uint64_t> NodeObserver::read_keys(const std::vector<std::string>& keys) {
  redisContext* reader = connections_->reader;
  const std::uint64_t marker = next_marker_++;
  const std::int64_t issued_us = time_.now_us();
  if (cluster_) redisAppendCommand(reader, "ASKING");  // kept through MULTI: an importing slot's keys answer
  redisAppendCommand(reader, "MULTI");
  for (const std::string& key : keys) {
    redisAppendCommand(reader, "GET %b", key.data(), key.size());
    redisAppendCommand(reader, "PEXPIRETIME %b", key.data(), key.size());
    redisAppendCommand(reader, "HKEYS %b", key.data(), key.size());  // WRONGTYPE on a string: fine
  }
  redisAppendCommand(reader, "TIME");
  redisAppendCommand(reader, "PUBLISH %s %llu", marker_channel_.c_str(), static_cast<unsigned long long>(marker));
  redisAppendCommand(reader, "EXEC");
  // ASKING, MULTI and every queued command answer first (QUEUED, or the error that aborts the EXEC).
  const std::size_t queued = 3 * keys.size() + 3 + (cluster_ ? 1 : 0);
  for (std::size_t i = 0; i < queued; ++i) {
    void* raw = nullptr;
    if (redisGetReply(reader, &raw) != REDIS_OK) throw std::runtime_error("observer: read failed");
    freeReplyObject(raw);
  }
  void* raw = nullptr;
  if (redisGetReply(reader, &raw) != REDIS_OK || raw == nullptr) throw std::runtime_error("observer: read failed");
  ReplyPtr exec(static_cast<redisReply*>(raw));
  if (cluster_ && exec->type == REDIS_REPLY_ERROR) return std::nullopt;  // the slot is not served here
  if (exec->type != REDIS_REPLY_ARRAY || exec->elements != 3 * keys.size() + 2) {
    throw std::runtime_error("observer: unexpected EXEC reply");
  }
  StateRead read;
  std::size_t index = 0;
  for (const std::string& key : keys) {
    const redisReply* value = exec->element[index++];
    const redisReply* expire = exec->element[index++];
    const redisReply* fields = exec->element[index++];
    KeyState& entry = read.state[key];
    if (fields->type == REDIS_REPLY_ARRAY) {
      for (std::size_t f = 0; f < fields->elements; ++f) entry.fields.push_back(text_of(fields->element[f]));
    }
    entry.present = value->type != REDIS_REPLY_NIL;  // an error (WRONGTYPE) means a non-string lock: present
    entry.value = value->type == REDIS_REPLY_STRING ? text_of(value) : "";
    entry.expire_at_ms = expire->type == REDIS_REPLY_INTEGER && expire->integer >= 0 ? expire->integer : -1;
  }
  const redisReply* time = exec->element[index];
  if (time->type == REDIS_REPLY_ARRAY && time->elements == 2) {
    read.node_ms = std::stoll(text_of(time->element[0])) * 1000 + std::stoll(text_of(time->element[1])) / 1000;
  }
  reads_[marker] = Read{std::move(read), issued_us};
  return marker;
}

// A connection the stream never saw named (it connected before the stream began): the server's word now.
std::optional<std::string> NodeObserver::client_name(const std::string& address) {
  ReplyPtr reply(static_cast<redisReply*>(redisCommand(connections_->reader, "CLIENT LIST")));
  if (!reply || reply->type != REDIS_REPLY_STRING) return std::nullopt;
  const std::string list = text_of(reply.get());
  const std::size_t at = list.find("addr=" + address + " ");
  if (at == std::string::npos) return std::nullopt;
  const std::size_t end = list.find('\n', at);
  const std::string entry = list.substr(at, end == std::string::npos ? std::string::npos : end - at);
  const std::size_t name = entry.find(" name=");
  if (name == std::string::npos) return std::nullopt;
  const std::size_t stop = entry.find(' ', name + 6);
  std::string found = entry.substr(name + 6, stop == std::string::npos ? std::string::npos : stop - name - 6);
  if (found.empty()) return std::nullopt;
  return found;
}

void NodeObserver::loop() {
  observe();
  // What came after the last read (the node went away, or the run ended first): derived, or counted.
  std::lock_guard lock(mutex_);
  attribution_->finish();
  done_ = true;
  done_changed_.notify_all();
}

void NodeObserver::observe() {
  redisContext* subscriber = connections_->subscriber;
  // When the bytes being parsed reached us: after `fill_lo` (the socket was last seen empty then) and by
  // `fill_hi` (when they were read). Redis writes a command's notifications and MONITOR line in the event-loop
  // pass that ran it, usually microseconds later (not a bound: it may write the caller's reply first). Bytes
  // left over from the constructor's reads came after the initial read was sent.
  std::int64_t socket_empty_us = resolved_issued_us_;
  std::int64_t fill_lo = resolved_issued_us_, fill_hi = time_.now_us();
  // Bounded by the run: stop() ends it, and a lost connection (the node crashed) ends it at once.
  while (!stopping_) {
    void* raw = nullptr;
    if (redisReaderGetReply(subscriber->reader, &raw) != REDIS_OK) return;
    if (raw == nullptr) {
      pollfd wait{subscriber->fd, POLLIN, 0};
      // A short wait keeps `fill_lo` close to the bytes' arrival (and the event's window narrow).
      const int ready = poll(&wait, 1, 2);
      const std::int64_t now = time_.now_us();
      if (ready <= 0) {
        socket_empty_us = now;
        continue;
      }
      // A reply begun in an earlier read keeps that read's window start.
      const bool partial = subscriber->reader->pos < subscriber->reader->len;
      if (redisBufferRead(subscriber) != REDIS_OK) return;
      if (!partial) fill_lo = socket_empty_us;
      fill_hi = now;
      int left = 0;
      if (ioctl(subscriber->fd, FIONREAD, &left) == 0 && left == 0) socket_empty_us = now;
      continue;
    }
    ReplyPtr reply(static_cast<redisReply*>(raw));
    try {
      if (reply->type == REDIS_REPLY_STATUS) {
        if (std::optional<MonitorLine> line = parse_monitor_line(text_of(reply.get()))) {
          std::lock_guard lock(mutex_);
          attribution_->command(*line);
        }
        continue;
      }
      if (reply->type != REDIS_REPLY_ARRAY || reply->elements < 3) continue;
      const std::string type = text_of(reply->element[0]);
      if (type == "pmessage" && reply->elements == 4) {
        const std::string channel = text_of(reply->element[2]);
        const std::string key = text_of(reply->element[3]);
        if (keys_.count(key) == 0 || channel.rfind(kKeyeventPrefix, 0) != 0) continue;
        {
          std::lock_guard lock(mutex_);
          attribution_->notification(fill_hi, std::max(resolved_issued_us_, fill_lo),
                                     channel.substr(std::string(kKeyeventPrefix).size()), key);
        }
        if (!outstanding_ && reads_open_) {
          try {
            outstanding_ = request_read();
          } catch (const std::exception&) {
            // The node is going away (killed while this stream lagged behind it): its last lines are still
            // in the stream, after this notification. Read them to the stream's end, without more reads.
            reads_open_ = false;
          }
        }
      } else if (type == "message") {
        const std::uint64_t marker = std::stoull(text_of(reply->element[2]));
        if (marker >= kCatchUpMarkerBase) {
          std::lock_guard lock(mutex_);
          caught_up_to_ = std::max(caught_up_to_, marker);
          done_changed_.notify_all();
          continue;
        }
        auto read = reads_.find(marker);
        if (read == reads_.end()) continue;
        {
          std::lock_guard lock(mutex_);
          attribution_->state_read(read->second.read);
        }
        resolved_issued_us_ = read->second.issued_us;
        reads_.erase(read);
        if (outstanding_ == marker) outstanding_.reset();
      }
    } catch (const std::exception&) {
      return;  // the node went away mid-read: what is pending is derived or counted by finish()
    }
  }
}

}  // namespace lockcheck::redis_backend
