#pragma once
// Server-level facts from a real redis-server, recorded as `server` history lines (sim/README.md).
//
// How: one connection subscribes to the node's keyevent notifications (notify-keyspace-events) and to a
// marker channel; after each notification on a lock key a second connection reads the key's state in a
// MULTI (GET, PEXPIRETIME, HKEYS, TIME) that also PUBLISHes a numbered marker. Redis delivers the marker on the
// subscription in execution order, so the state read is exactly the state after the notifications that
// arrived before that marker: nothing is guessed from timing. When several notifications on one key arrive
// before a marker, only the last one's state is known. An earlier write whose key is removed again before
// the read (a transient Redlock attempt) is recorded with "state_unread":true; any other earlier write is
// counted as unobserved, and the run then reports the server-level properties as unknown.
//
// What the notifications do not say is which client caused an event (`by`): attribution.hpp derives it
// from the clients' operations afterwards, and only when exactly one client can have caused it.
// `t` is when the notification's bytes were read from the socket; `since_us` a time the event certainly came
// after: the later of when the socket was last seen empty before those bytes and when the read whose marker
// preceded them was sent. The client operation that caused the event completed after `since_us` as well.
#include <atomic>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "record_sink.hpp"

namespace lockcheck::redis_backend {

struct KeyState {
  bool present = false;
  std::string value;  // "" when not a string (a hash lock)
  std::vector<std::string> fields;  // a hash lock's field names (owner ids), else empty
  std::int64_t expire_at_ms = -1;
};

class NodeObserver {
 public:
  // Subscribes, reads the initial state of `keys`, then observes on its own thread until destroyed.
  // Throws std::runtime_error when it cannot connect.
  NodeObserver(int node, int port, std::set<std::string> keys, const TimeBase& time, RecordSink& sink);
  ~NodeObserver();
  NodeObserver(const NodeObserver&) = delete;
  NodeObserver& operator=(const NodeObserver&) = delete;

  // The state of every key as of the initial read (before the thread started).
  const std::map<std::string, KeyState>& initial_state() const { return initial_; }
  // The state last observed; stop() first for a stable answer.
  std::map<std::string, KeyState> last_state() const;
  // Stops observing (the node crashed or the run ends). Idempotent.
  void stop();
  std::int64_t unobserved() const { return unobserved_; }

 private:
  struct Notification;
  struct Connections;
  void loop();
  void observe();
  std::uint64_t request_read();
  void resolve(std::uint64_t marker);
  bool removed_later_in_batch(std::size_t index) const;

  int node_;
  int port_;
  std::set<std::string> keys_;
  const TimeBase& time_;
  RecordSink& sink_;
  std::unique_ptr<Connections> connections_;
  std::map<std::string, KeyState> initial_;
  std::map<std::string, KeyState> state_;
  mutable std::mutex state_mutex_;
  std::vector<Notification> pending_;
  struct Read {
    std::map<std::string, KeyState> state;
    std::int64_t node_ms = 0;
    std::int64_t issued_us = 0;
  };
  std::map<std::uint64_t, Read> reads_;  // by marker
  std::int64_t resolved_issued_us_ = 0;  // when the read of the last marker received was sent
  std::optional<std::uint64_t> outstanding_;
  std::uint64_t next_marker_ = 1;
  std::atomic<bool> stopping_{false};
  std::atomic<std::int64_t> unobserved_{0};
  std::thread thread_;
};

}  // namespace lockcheck::redis_backend
