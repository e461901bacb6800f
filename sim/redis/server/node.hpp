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

#include "redis/server/clock.hpp"
#include "redis/command_table/command_table.hpp"
#include "redis/server/config.hpp"
#include "redis/server/error_stats.hpp"
#include "redis/scripting/function_library.hpp"
#include "redis/scripting/script_host.hpp"
#include "redis/topology/cluster_view.hpp"
#include "redis/keyspace/keyspace.hpp"
#include "redis/server/notifications.hpp"
#include "lockcheck/reply.hpp"
#include "redis/keyspace/observer.hpp"
#include "redis/acl/acl_registry.hpp"
#include "redis/server/blocked_clients.hpp"
#include "redis/server/pubsub.hpp"
#include "redis/server/session.hpp"

namespace lockcheck::mock {

class LuaEngine;
struct CommandSpec;

struct ReplicationInfo {
  std::string role = "master";  // "master" or "slave", as INFO prints it
  std::int64_t connected_slaves = 0;
  std::string extra_lines;      // appended verbatim to INFO replication, each "name:value\r\n"
  // A replica's master, as ROLE names it.
  std::string master_host;
  int master_port = 0;
};

struct NodeOptions {
  NodeClock clock{};                       // required: Unix ms on this node's clock
  Observer* observer = nullptr;          // optional key-event sink
  std::size_t maxmemory_keys = 0;        // 0 = unlimited; otherwise a key-count stand-in for maxmemory
  EvictionPolicy eviction = EvictionPolicy::noeviction;
  std::uint64_t eviction_seed = 0x5eed;  // for allkeys-random
  std::uint64_t script_instruction_limit = 200'000'000;  // a runaway script is aborted with an error
  std::size_t script_memory_limit_bytes = 256u << 20;
  // Unix microseconds for MONITOR's timestamps (the transport's real clock, read when a line is written, as
  // Redis's gettimeofday); unset: the node clock's milliseconds.
  std::function<std::int64_t()> monitor_clock_us{};
  // The commands the node answers (frozen; one table per process: command_table.hpp). The default, every
  // family lockcheck_mock composes, is named here and so linked by the code that builds the Node.
  const CommandTable* commands = &all_families_commands();
};

// The transport's connections, for CLIENT LIST and CLIENT KILL. Without one, a node knows only the
// calling client.
struct ClientDirectory {
  std::function<std::vector<const Session*>()> list;
  std::function<bool(std::int64_t client_id)> kill;  // closes that connection; false if unknown
  std::function<bool()> shutdown;  // SHUTDOWN: stop serving, without answering; false or unset: cannot
};

// Counters INFO stats shows; CONFIG RESETSTAT zeroes them.
struct NodeStats {
  std::int64_t commands_processed = 0;
  CommandCounters commands;  // INFO commandstats
  ErrorStats errors;         // INFO errorstats, total_error_replies
};

// Published messages: (subscriber client id, push ["message", channel, payload]; a RESP2 transport sends
// it as an array).
using PublishSink = std::function<void(std::int64_t client_id, const Reply& message)>;
// Cluster mode: a PUBLISH here is also handed to this bus, which delivers it at the other nodes.
using PublishBus = std::function<void(const std::string& channel, const std::string& message)>;
// The late reply to a blocked client (BLPOP served by another client's push, or timed out), already in the
// client's protocol. Without a sink a node cannot hold a reply back, and blocking pops answer at once.
using UnblockSink = std::function<void(std::int64_t client_id, const Reply& reply)>;
// WAIT numreplicas timeout_ms -> replicas that acknowledged. Default answers 0 (standalone).
using WaitHook = std::function<std::int64_t(std::int64_t client_id, std::int64_t numreplicas, std::int64_t timeout_ms)>;

// The Lua engine's ScriptHost (scripting/script_host.hpp): final, so calls through a Node stay direct.
class Node final : public ScriptHost {
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
  void set_unblock_sink(UnblockSink sink) { unblock_sink_ = std::move(sink); }
  void set_replication_info(ReplicationInfo info) { replication_ = std::move(info); }
  // Write commands (and a script's writes) are refused with this error while it is set: a read-only replica
  // ("READONLY ..."), a master short of good replicas under min-replicas-to-write ("NOREPLICAS ..."). Empty:
  // writes run. Set by whoever plays the replication (the simulator).
  void set_write_refusal(std::string error) { write_refusal_ = std::move(error); }
  void set_maxmemory_keys(std::size_t keys, EvictionPolicy policy);
  void set_client_directory(ClientDirectory directory) { clients_ = std::move(directory); }
  void set_tcp_port(int port) { tcp_port_ = port; }
  // INFO server's process_id: the serving process's (the transport knows it); 1 for a simulated node.
  void set_process_id(std::int64_t pid) { process_id_ = pid; }
  std::int64_t process_id() const { return process_id_; }
  // MONITOR (node_monitor.cpp): `session` is shown every command other clients run from now on, until it
  // disconnects; a monitor that also runs commands sees them too, after their replies.
  void add_monitor(Session& session);
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

  // Whole-keyspace snapshot and restore, every database, with the FUNCTION libraries (the EVAL script cache
  // is not part of it, as on Redis, where functions travel in the RDB and the replication stream and scripts
  // do not).
  Dataset snapshot() const;
  void restore(Dataset dataset);
  void flush_scripts();

  std::int64_t now_ms() const override { return options_.clock(); }
  const Keyspace& keyspace() const { return keyspace_; }

  // Used by command handlers and the script engine.
  Keyspace& mutable_keyspace() { return keyspace_; }
  LuaEngine& lua() { return *lua_; }
  FunctionLibraries& functions() { return *functions_; }
  // Served over a socket: while a script runs past busy-reply-threshold, the transport's `servicer` answers
  // other clients (they get -BUSY, SCRIPT KILL works); it returns false when the server is stopping. The
  // simulator installs none: its clock does not move during a script, so a script is never busy there.
  void set_busy_servicer(std::function<bool()> servicer) { busy_servicer_ = std::move(servicer); }
  bool serves_while_busy() const override { return static_cast<bool>(busy_servicer_); }
  bool service_while_busy() override;
  std::int64_t busy_reply_threshold_ms() const override;
  // allow_oom: the script's shebang has flags=allow-oom, so its writes skip the maxmemory check.
  Reply call_from_script(const Command& command, bool read_only, bool allow_oom) override;
  // Evicts as the policy allows; false when the node is still over its limit (Redis's OOM state): the
  // key-count limit (maxmemory_keys) or CONFIG SET maxmemory in bytes against used_memory_estimate().
  bool make_room() override;
  bool memory_limited() const { return options_.maxmemory_keys > 0 || maxmemory_bytes_ > 0; }
  // INFO's used_memory: Redis 7.0.15's start-up figure, the Lua heap, and each key's bytes and overheads.
  std::int64_t used_memory_estimate() const;
  // Transactions: a queued command run by EXEC; WATCH bookkeeping (commands_transaction.cpp).
  Reply run_queued(const Command& command, Session& session);
  void watch(Session& session, std::string_view key);
  void unwatch_all(Session& session);
  bool watched_key_changed(const Session& session) const;
  // PUBLISH: delivers here, hands the message to the bus, returns this node's receivers (as a cluster node does).
  std::int64_t publish(const std::string& channel, const std::string& message);
  // A message another node published: delivered to this node's subscribers only.
  std::int64_t deliver_published(const std::string& channel, const std::string& message);
  // Blocking pops (blocking.cpp). can_block: outside scripts and EXEC, and with a transport that takes late
  // replies. block() parks the client; serve_blocked() retries parked clients after a change (in blocking
  // order, until none is served); expire_blocked() answers those whose timeout passed on the node clock.
  bool can_block(const Session& session, bool in_script) const;
  void block(Session& session, const Command& command, PopAttempt attempt, std::optional<std::int64_t> deadline_ms);
  void serve_blocked();
  void expire_blocked();
  // CLIENT UNBLOCK: answers client_id's parked call as its timeout would, or with an UNBLOCKED error;
  // false when that client is not blocked.
  bool unblock(std::int64_t client_id, bool with_error);
  std::optional<std::int64_t> next_block_deadline_ms() const { return blocked_.next_deadline_ms(); }
  const BlockedClients& blocked() const { return blocked_; }
  // SPUBLISH: delivers to this node's shard-channel subscribers only; returns how many.
  std::int64_t shard_publish(const std::string& channel, const std::string& message);
  // (P|S)SUBSCRIBE and (P|S)UNSUBSCRIBE of args[1..] (unsubscribe: all of that kind when none are named).
  Reply subscribe(Session& session, const Command& command, SubscriptionKind kind);
  Reply unsubscribe(Session& session, const Command& command, SubscriptionKind kind);
  const PubSubRegistry& pubsub() const { return pubsub_; }
  std::int64_t wait_replicas(std::int64_t client_id, std::int64_t numreplicas, std::int64_t timeout_ms);
  const ReplicationInfo& replication() const { return replication_; }
  ServerConfig& config() { return config_; }
  // CONFIG SET applied: eviction policy, encoding thresholds and keyspace notification classes follow the
  // configuration.
  void config_changed();
  const EncodingLimits& encoding_limits() const { return encoding_limits_; }
  // notify-keyspace-events as given to CONFIG SET (CONFIG GET's canonical form drops 'n' next to 'A').
  void configure_notifications(std::string_view flags) { notifier_.configure(flags); }
  // A keyspace notification no key event carries (MOVE's move_from/move_to, COPY's copy_to).
  void notify_keyspace_event(char event_class, std::string_view event, std::string_view key, int db) {
    notifier_.notify(event_class, event, key, db);
  }
  const ClientDirectory& clients() const { return clients_; }
  NodeStats& stats() { return stats_; }
  int tcp_port() const { return tcp_port_; }
  std::int64_t start_ms() const { return start_ms_; }
  void set_script_context(std::string_view sha) override { script_sha_ = sha; }
  // ACL (acl_registry.hpp): the users, the user a connection runs as, whether it must AUTH first, and the
  // ACL LOG entry for a refusal (node_acl.cpp).
  AclRegistry& acl() { return acl_; }
  const AclUser& user_of(const Session& session) const { return session.user ? *session.user : *acl_.default_user(); }
  bool auth_required(const Session& session) const {
    if (session.authenticated) return false;
    const AclUser& fallback = *acl_.default_user();
    return !fallback.nopass() || (fallback.flags & kUserOff) != 0;
  }
  void log_acl_denial(const Session& session, const AclVerdict& verdict, const Command& command, AclLogContext context);
  // redis.acl_check_cmd: may the running script's user run `command`? nullopt when ACL knows no such command.
  std::optional<bool> script_user_may_run(const Command& command) const override;

 private:
  // An LFU eviction policy (from the options, set_maxmemory_keys or CONFIG SET) needs the per-key counters kept.
  void keep_lfu_counters_for(EvictionPolicy policy);
  // How a command ended, for commandstats: refused before it ran (rejected_calls) or ran (failed_calls if it
  // answered an error). No spec: an unknown command or subcommand, counted in errorstats only.
  struct Outcome {
    const CommandSpec* spec = nullptr;
    bool ran = false;
  };
  Reply execute_command(const Command& command, Session& session, Outcome& outcome);
  Reply script_command(const Command& command, bool read_only, bool allow_oom, Outcome& outcome);
  // An error reply's place in INFO errorstats/commandstats; already_counted: a script's error that its
  // redis.call counted when the command answered it.
  [[gnu::cold]] void count_error(const Reply& error, const Outcome& outcome, bool already_counted);
  Reply dispatch(const Command& command, Session& session, bool in_script);
  void send(const std::vector<Delivery>& deliveries);
  // EXEC's up-front OOM check: a queued command may grow memory.
  bool queued_deny_oom(const Session& session) const;
  // EXEC refused before it runs (out of memory, busy script): the transaction ends with Redis's reply.
  Reply abort_exec(Session& session, const Command& exec, std::string_view why);
  // Writes `args` to every monitor's stream (monitor.hpp); a script's commands as `[db lua]`.
  void feed_monitors(Session& source, int db, const Command& args, bool from_script);
  std::vector<std::int64_t> monitors_;  // client ids, in the order they ran MONITOR
  std::int64_t process_id_ = 1;

  NodeOptions options_;
  Keyspace keyspace_;
  KeyspaceNotifier notifier_;  // the keyspace's observer: notifications, then options_.observer
  std::unique_ptr<LuaEngine> lua_;
  std::unique_ptr<FunctionLibraries> functions_;  // after lua_: released before the Lua state closes
  std::function<bool()> busy_servicer_;
  PublishSink publish_sink_;
  WaitHook wait_hook_;
  PublishBus publish_bus_;
  ReplicationInfo replication_;
  std::string write_refusal_;
  ServerConfig config_;
  ClientDirectory clients_;
  NodeStats stats_;
  int tcp_port_ = 6379;
  std::int64_t maxmemory_bytes_ = 0;  // CONFIG SET maxmemory
  EncodingLimits encoding_limits_;     // CONFIG SET hash-max-listpack-entries and the like
  std::int64_t start_ms_ = 0;
  PubSubRegistry pubsub_;
  BlockedClients blocked_;
  UnblockSink unblock_sink_;
  void answer_blocked(BlockedCall& call, Reply reply);
  Session* script_session_ = nullptr;  // the client whose script is running
  std::string_view script_sha_;
  // The ACL refusal of `command` for `session`, logged; nullopt when allowed (the default user: at once).
  std::optional<Reply> acl_refusal(const Session& session, const CommandSpec& spec, const Command& command,
                                   AclLogContext context);
  int depth_ = 0;  // >0 while a command is running; nested commands come from scripts
  std::shared_ptr<const ClusterView> cluster_;
  int cluster_myself_ = -1;
  AclRegistry acl_;  // last: the hot members above stay together
};

}  // namespace lockcheck::mock
