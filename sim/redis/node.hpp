#pragma once
// One Redis node: keyspace + commands + Lua scripting, answering Commands with RESP2 Replies as
// redis-server 7.0 does. No sockets, no OS clock: time comes from the injected NodeClock, randomness from
// seeds, and everything the simulator needs to see (key events, published messages, WAIT) goes through hooks.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "clock.hpp"
#include "config.hpp"
#include "cluster_view.hpp"
#include "keyspace.hpp"
#include "notifications.hpp"
#include "lockcheck/reply.hpp"
#include "observer.hpp"
#include "session.hpp"

namespace lockcheck::mock {

class LuaEngine;

struct ReplicationInfo {
  std::string role = "master";  // "master" or "slave", as INFO prints it
  std::int64_t connected_slaves = 0;
  std::string extra_lines;      // appended verbatim to INFO replication, each "name:value\r\n"
};

struct NodeOptions {
  NodeClock clock{};                       // required: Unix ms on this node's clock
  Observer* observer = nullptr;          // optional key-event sink
  std::size_t maxmemory_keys = 0;        // 0 = unlimited; otherwise a key-count stand-in for maxmemory
  EvictionPolicy eviction = EvictionPolicy::noeviction;
  std::uint64_t eviction_seed = 0x5eed;  // for allkeys-random
  std::uint64_t script_instruction_limit = 200'000'000;  // a runaway script is aborted with an error
  std::size_t script_memory_limit_bytes = 256u << 20;
};

// The transport's connections, for CLIENT LIST and CLIENT KILL. Without one, a node knows only the
// calling client.
struct ClientDirectory {
  std::function<std::vector<const Session*>()> list;
  std::function<bool(std::int64_t client_id)> kill;  // closes that connection; false if unknown
};

// Counters INFO stats shows; CONFIG RESETSTAT zeroes them.
struct NodeStats {
  std::int64_t commands_processed = 0;
};

// Published messages: (subscriber client id, push ["message", channel, payload]; a RESP2 transport sends
// it as an array).
using PublishSink = std::function<void(std::int64_t client_id, const Reply& message)>;
// Cluster mode: a PUBLISH here is also handed to this bus, which delivers it at the other nodes.
using PublishBus = std::function<void(const std::string& channel, const std::string& message)>;
// WAIT numreplicas timeout_ms -> replicas that acknowledged. Default answers 0 (standalone).
using WaitHook = std::function<std::int64_t(std::int64_t client_id, std::int64_t numreplicas, std::int64_t timeout_ms)>;

class Node {
 public:
  explicit Node(NodeOptions options);
  ~Node();
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  // Runs one command for a client, as redis-server would answer it.
  Reply execute(const Command& command, Session& session);

  // Hooks and configuration, changeable at any time.
  void set_clock(NodeClock clock) { options_.clock = std::move(clock); }
  void set_observer(Observer* observer);
  void set_publish_sink(PublishSink sink) { publish_sink_ = std::move(sink); }
  void set_wait_hook(WaitHook hook) { wait_hook_ = std::move(hook); }
  void set_publish_bus(PublishBus bus) { publish_bus_ = std::move(bus); }
  void set_replication_info(ReplicationInfo info) { replication_ = std::move(info); }
  void set_maxmemory_keys(std::size_t keys, EvictionPolicy policy);
  void set_client_directory(ClientDirectory directory) { clients_ = std::move(directory); }
  void set_tcp_port(int port) { tcp_port_ = port; }
  // Cluster mode (cluster_view.hpp): this node is view->nodes[myself]. A null view = standalone.
  void set_cluster_view(std::shared_ptr<const ClusterView> view, int myself);
  const ClusterView* cluster_view() const { return cluster_.get(); }
  // MIGRATE of every key in `slot` to `target` (cluster_migrate.cpp). Returns how many moved.
  std::size_t migrate_slot_keys(int slot, Node& target);
  int cluster_myself() const { return cluster_myself_; }

  // Forget a closed connection's subscriptions, transaction, watched keys and SELECTed database.
  void disconnect(Session& session);

  // Active expiry step: up to `limit` expired keys removed at the node's current time (deterministic:
  // earliest deadline first). Returns how many.
  std::size_t expire_some(std::size_t limit);
  // Evicts one key under the configured policy (allkeys-random if none is configured).
  bool evict_one();
  // Evicts `key` from database 0 now if the node has it, reported as `evicted` like any eviction.
  bool evict_key(std::string_view key);

  // Whole-keyspace snapshot and restore, every database (the script cache is not part of it, as on Redis).
  Dataset snapshot() const { return keyspace_.dataset(); }
  void restore(Dataset dataset) { keyspace_.restore(std::move(dataset)); }
  void flush_scripts();

  std::int64_t now_ms() const { return options_.clock(); }
  const Keyspace& keyspace() const { return keyspace_; }

  // Used by command handlers and the script engine.
  Keyspace& mutable_keyspace() { return keyspace_; }
  LuaEngine& lua() { return *lua_; }
  // allow_oom: the script's shebang has flags=allow-oom, so its writes skip the maxmemory check.
  Reply call_from_script(const Command& command, bool read_only, bool allow_oom = false);
  // Evicts as the policy allows; false when the node is still over its limit (Redis's OOM state).
  bool make_room();
  Reply call_from_script(const Command& command, bool read_only);
  // Transactions: a queued command run by EXEC; WATCH bookkeeping (commands_transaction.cpp).
  Reply run_queued(const Command& command, Session& session);
  void watch(Session& session, std::string_view key);
  void unwatch_all(Session& session);
  bool watched_key_changed(const Session& session) const;
  // PUBLISH: delivers here, hands the message to the bus, returns this node's receivers (as a cluster node does).
  std::int64_t publish(const std::string& channel, const std::string& message);
  // A message another node published: delivered to this node's subscribers only.
  std::int64_t deliver_published(const std::string& channel, const std::string& message);
  Reply subscribe(Session& session, const Command& command);
  Reply unsubscribe(Session& session, const Command& command);
  std::int64_t wait_replicas(std::int64_t client_id, std::int64_t numreplicas, std::int64_t timeout_ms);
  const ReplicationInfo& replication() const { return replication_; }
  ServerConfig& config() { return config_; }
  // CONFIG SET applied: eviction policy and keyspace notification classes follow the configuration.
  void config_changed();
  // notify-keyspace-events as given to CONFIG SET (CONFIG GET's canonical form drops 'n' next to 'A').
  void configure_notifications(std::string_view flags) { notifier_.configure(flags); }
  // A keyspace notification no key event carries (MOVE's move_from/move_to, COPY's copy_to).
  void notify_keyspace_event(char event_class, std::string_view event, std::string_view key, int db) {
    notifier_.notify(event_class, event, key, db);
  }
  const ClientDirectory& clients() const { return clients_; }
  NodeStats& stats() { return stats_; }
  int tcp_port() const { return tcp_port_; }
  std::size_t subscribed_channels() const { return subscribers_.size(); }
  std::int64_t start_ms() const { return start_ms_; }
  void set_script_context(std::string_view sha) { script_sha_ = sha; }

 private:
  Reply dispatch(const Command& command, Session& session, bool in_script);

  NodeOptions options_;
  Keyspace keyspace_;
  KeyspaceNotifier notifier_;  // the keyspace's observer: notifications, then options_.observer
  std::unique_ptr<LuaEngine> lua_;
  PublishSink publish_sink_;
  WaitHook wait_hook_;
  PublishBus publish_bus_;
  ReplicationInfo replication_;
  ServerConfig config_;
  ClientDirectory clients_;
  NodeStats stats_;
  int tcp_port_ = 6379;
  std::int64_t start_ms_ = 0;
  std::map<std::string, std::set<std::int64_t>> subscribers_;  // channel -> client ids
  Session* script_session_ = nullptr;  // the client whose script is running
  std::string_view script_sha_;
  int depth_ = 0;  // >0 while a command is running; nested commands come from scripts
  std::shared_ptr<const ClusterView> cluster_;
  int cluster_myself_ = -1;
};

}  // namespace lockcheck::mock
