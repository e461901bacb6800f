#pragma once
// One simulated Redis node: the embedded mock with its own clock, up or crashed, master or replica, and the
// server-side facts it records. Key events are buffered while a command runs and written to the history
// after it, with the key's value then (the owner's token for token locks).
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/clock_model.hpp"
#include "model/run_config.hpp"
#include "model/history.hpp"
#include "lockcheck/reply.hpp"
#include "redis/keyspace/observer.hpp"

namespace lockcheck::mock {
class Node;
struct Dataset;
struct Session;
struct Entry;
}  // namespace lockcheck::mock

namespace lockcheck::sim {

class SimNode final : public mock::Observer {
 public:
  // A WAIT the node just ran: the world blocks the client until replicas acknowledge (replication.cpp).
  struct WaitRequest {
    std::int64_t numreplicas = 0;
    std::int64_t timeout_ms = 0;  // 0: no timeout
  };

  SimNode(int id, const NodeConfig& config, History& history, const Scheduler& scheduler);
  ~SimNode() override;
  SimNode(const SimNode&) = delete;
  SimNode& operator=(const SimNode&) = delete;

  int id() const { return id_; }
  bool up() const { return up_; }
  std::uint64_t crashes() const { return crashes_; }  // how often it crashed: tells one incarnation from the next
  int replica_of() const { return replica_of_; }
  ClockModel& clock() { return clock_; }
  mock::Node& mock() { return *node_; }

  // Session ids at or above this are the pub/sub connections of process (id - kSubscriberSession).
  static constexpr int kSubscriberSession = 1 << 20;

  // Runs a client's command now; records the key events it caused. Returns whether data changed.
  // SUBSCRIBE runs on the process's subscriber session, as a real client subscribes on its own connection.
  Reply execute(int process, const Command& command, bool& changed);
  // A command `process` sent before it crashed, arriving now: it runs on the connection it was sent on (what a
  // killed client wrote reaches the server before the connection's end), so a DEL queued inside its MULTI stays
  // queued and its EXEC still checks its WATCH. Without such a connection (a blocked or subscribed one was closed
  // at once), as execute().
  Reply execute_from_crashed(int process, const Command& command, bool& changed);
  // Changes when `process`'s session (connection) here ends or a new one begins: a crash of the node, a new
  // session after the process's crash.
  std::uint64_t session_epoch(int process) const;
  // A client process crashed: its connections close, and with them its subscriptions, open transaction and
  // watched keys (a restarted process connects afresh). Its command connection closes once what the process
  // sent before it died has arrived: kept for execute_from_crashed() until the process restarts.
  void close_connections(int process);
  // The crashed process starts again: its old command connections have ended.
  void end_closing_connection(int process);
  // The live process dropped its command connection numbered `connection` (a call timed out): what it sent
  // on it still arrives and runs there (execute_on_dropped) until the connection's end reaches the node
  // (end_dropped_connection); its next command opens a new session, without the old one's MULTI or WATCH.
  void drop_command_connection(int process, std::uint64_t connection);
  void end_dropped_connection(int process, std::uint64_t connection);
  // Runs a command sent on dropped connection `connection`; nullopt when that connection has ended here.
  std::optional<Reply> execute_on_dropped(int process, std::uint64_t connection, const Command& command, bool& changed);
  // The 10 Hz active expiry cycle; true when it expired something (a master then replicates: Redis propagates
  // a DEL for each key it expires).
  bool active_expiry();
  // A replica takes master `from`'s data set as of sequence `sequence` (ignored when older than what it has,
  // or when it no longer follows `from`).
  // `sole_copy`: no one else holds `dataset`, so it is moved into the node instead of copied.
  void apply_replication(int from, std::uint64_t sequence, mock::Dataset& dataset, bool sole_copy);
  std::uint64_t applied_sequence() const { return applied_sequence_; }
  // The WAIT the last execute() ran, if any (cleared by taking it).
  std::optional<WaitRequest> take_wait_request() { return std::exchange(wait_request_, std::nullopt); }

  // Blocking pops (BLPOP & co.): whether process's last command left it blocked, the late replies the
  // node produced since last taken (process, reply), the earliest timeout as node-clock ms, and the timeout
  // step (run by the world at that time on the node's clock).
  bool blocked(int process) const;
  std::vector<std::pair<int, Reply>> take_late_replies() { return std::exchange(late_replies_, {}); }
  std::optional<std::int64_t> next_block_deadline_ms() const;
  std::int64_t node_time_ms() const;
  void expire_blocked();

  // Cluster: MIGRATE every key of `slot` to `target` now; both nodes record it (target first). Returns how many.
  std::size_t migrate_slot_to(int slot, SimNode& target);
  void crash();
  // With `record_losses` false what it lost is not recorded (a cluster master failed over while down: its
  // losses were recorded at the failover, and it rejoins as a replica at once).
  void restart(RestartMode mode, bool record_losses = true);
  const mock::Dataset& data_at_crash() const { return *at_crash_; }
  void promote() { replica_of_ = -1; }
  void follow(int master) { replica_of_ = master; }
  void fsync();
  // Records `lost` events for the lock keys `before` had that this node's data does not (same value).
  void record_losses(const mock::Dataset& before, int node_of_record);

  void on_key_event(const mock::KeyEvent& event) override;

  // Whether the node has `key` live (present and not past its deadline on the node's clock).
  bool has_key(const std::string& key) const;
  // Evicts `key` (the evict fault) and records it at once: a replica runs no expiry tick that would write it,
  // and a master's tick would write it up to 100 ms late. Whether the key was there.
  bool evict(const std::string& key);
  bool evict_one();  // as evict(), of the key the node's maxmemory policy picks; false when none

 private:
  struct PendingEvent {
    mock::KeyEventKind kind;
    std::string key;
    std::int64_t node_time_ms;
    std::int64_t client_id;
    std::string command;
    std::string script_sha;
    std::int64_t expire_at_ms;
  };
  void flush_events();
  // Ends `process`'s command session as its connection `connection` ends: a blocked client is freed at once, any
  // other session kept in closing_ for what is still on its way. False when it had none.
  bool retire_command_session(int process, std::uint64_t connection);
  Reply run_on(mock::Session& session, const Command& command, bool& changed);  // execute()'s core, on a session
  // The key's stored entry in database 0 (expired or not), or nullptr: what a recorded event reads of the key.
  const mock::Entry* stored_entry(const std::string& key) const;

  int id_;
  History& history_;
  const Scheduler& scheduler_;
  ClockModel clock_;
  std::unique_ptr<mock::Node> node_;
  // Behind pointers so that the simulator's headers need none of the mock's (only sim_node.cpp and the few
  // files that drive a node's data directly include redis/server/node.hpp).
  std::map<int, std::unique_ptr<mock::Session>> sessions_;
  std::map<int, std::uint64_t> sessions_opened_;  // process -> sessions made for it
  // Command connections on their way out, by (process, number): a crashed process's (kCrashedConnection), or
  // those a live process dropped (numbered as in ConnectionOrder).
  static constexpr std::uint64_t kCrashedConnection = ~std::uint64_t{0};
  std::map<std::pair<int, std::uint64_t>, std::unique_ptr<mock::Session>> closing_;
  std::uint64_t crashes_ = 0;  // every session ends at a crash, whether or not its process has sent since
  std::vector<PendingEvent> pending_;
  bool up_ = true;
  int replica_of_;
  std::uint64_t applied_sequence_ = 0;
  std::optional<WaitRequest> wait_request_;
  std::vector<std::pair<int, Reply>> late_replies_;
  std::unique_ptr<mock::Dataset> at_crash_;
  std::unique_ptr<mock::Dataset> fsynced_;
};

}  // namespace lockcheck::sim
