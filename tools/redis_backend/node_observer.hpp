#pragma once
// Server-level facts from a real redis-server, recorded as `server` history lines (sim/README.md).
//
// How: one connection runs MONITOR and subscribes to the node's keyevent notifications
// (notify-keyspace-events) and to a marker channel, so Redis writes every command (with the connection that
// sent it, and the commands a script ran), every notification and every marker into one stream, in
// execution order. After a notification on a lock key, a second connection reads every lock key's state in a
// MULTI (GET, PEXPIRETIME, HKEYS, TIME) that also PUBLISHes a numbered marker: the marker's place in the
// stream is the read's place. attribution.hpp turns the stream into server lines: who caused each change
// (from the MONITOR lines and the workers' client names) and what the key held after it (derived from the
// commands, and exact where a read follows the key's last change).
//
// `t` is when the notification's bytes were read from the socket; `since_us` when they began to be on their
// way: the later of when the socket was last seen empty before those bytes and when the read whose marker
// preceded them was sent (Redis writes them in the event-loop pass that ran the command, microseconds after).
//
// On a Redis Cluster node (`cluster`) a transaction must keep to one hash slot that the node serves or
// imports, so the read is one MULTI per slot of the lock keys, each after ASKING (which lets an importing
// node answer for the keys it already holds); a slot's read that the node refuses (-MOVED, -ASK for a key
// already migrated away: EXECABORT) tells nothing and is left out. The marker channel is the node's own,
// since a cluster node's PUBLISH reaches every node.
#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "attribution.hpp"
#include "record_sink.hpp"
#include "server_clock.hpp"

namespace lockcheck::redis_backend {

class NodeObserver {
 public:
  // Subscribes, reads the initial state of `keys`, then observes on its own thread until destroyed.
  // Throws std::runtime_error when it cannot connect. `clock`, the node's (nullable), places each change
  // where the node's MONITOR stamp says it ran, rather than when the observer got to read it.
  NodeObserver(int node, int port, std::set<std::string> keys, const TimeBase& time, RecordSink& sink, bool cluster = false,
               const ServerClock* clock = nullptr);
  ~NodeObserver();
  NodeObserver(const NodeObserver&) = delete;
  NodeObserver& operator=(const NodeObserver&) = delete;

  // The state of every key as of the initial read (before the thread started).
  const std::map<std::string, KeyState>& initial_state() const { return initial_; }
  // The state last observed; stop() first for a stable answer.
  std::map<std::string, KeyState> last_state() const;
  // Stops observing (the run ends). Idempotent.
  void stop();
  // The node was killed: takes in what it wrote before it died (its connection then closes), then stops.
  void drain();
  // The node lives on (demoted to a replica): takes in everything it did up to now, then stops. Waits for
  // a marker published now to come through the stream, or for the stream's end (its connections were closed).
  void catch_up();
  // What could not be judged; stop() first for the final count.
  Gaps gaps() const;

 private:
  struct Connections;
  void loop();
  void observe();
  // Waits until the stream has ended, or has brought catch_up()'s `marker` (bounded), then stops.
  void stop_after(std::optional<std::uint64_t> marker);
  // Sends the read(s) of every lock key; returns the marker of the last one the node ran.
  std::uint64_t request_read();
  // One MULTI read of `keys` (one slot on a cluster node); nullopt when the node refused it.
  std::optional<std::uint64_t> read_keys(const std::vector<std::string>& keys);
  std::optional<std::string> client_name(const std::string& address);

  int node_;
  int port_;
  std::set<std::string> keys_;
  bool cluster_;
  std::string marker_channel_;
  const TimeBase& time_;
  const ServerClock* clock_;
  std::unique_ptr<Connections> connections_;
  std::map<std::string, KeyState> initial_;
  struct Read {
    StateRead read;
    std::int64_t issued_us = 0;
  };
  std::map<std::uint64_t, Read> reads_;  // by marker
  std::int64_t resolved_issued_us_ = 0;  // when the read of the last marker received was sent
  std::optional<std::uint64_t> outstanding_;
  std::uint64_t next_marker_ = 1;
  mutable std::mutex mutex_;  // guards attribution_
  std::unique_ptr<NodeAttribution> attribution_;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> done_{false};  // the thread has finished
  std::condition_variable done_changed_;  // with mutex_
  std::uint64_t caught_up_to_ = 0;    // the last catch_up() marker the stream brought, with mutex_
  std::uint64_t next_catch_up_ = 0;   // the caller's
  bool reads_open_ = true;  // false once a state read failed: the node is going away (the thread's own)
  std::thread thread_;
};

}  // namespace lockcheck::redis_backend
