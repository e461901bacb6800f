#pragma once
// The production Port: one hiredis connection per node, blocking I/O with timeouts.
//
// Thread-safe: calls are serialised per port. A connection that breaks is dropped and re-made on the next
// call. A command whose connection broke after it was written reports CallStatus::unknown, never a guess.
#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "lockcheck/port.hpp"
#include "lockcheck/time.hpp"

struct redisContext;

namespace lockcheck {

struct ConnectionOptions {
  std::string host = "127.0.0.1";
  int port = 6379;
  Millis connect_timeout{1000};
  Millis command_timeout{1000};
  std::string username{};  // ACL user (Redis 6+); empty means the default user
  std::string password{};  // empty means no AUTH
  int database = 0;      // SELECT after connecting when not 0
  // CLIENT SETNAME after connecting when not empty: every connection to this node then carries the name in
  // CLIENT LIST, MONITOR and the slow log, so an operator can tell which service holds or frees a lock.
  // Printable ASCII without spaces ('!' to '~'), as Redis requires. Under an ACL, allow +client|setname.
  std::string client_name{};
};

// Throws InvalidArgument naming the bad field.
void validate_connection_options(const ConnectionOptions& options);

class HiredisPort final : public Port {
 public:
  explicit HiredisPort(std::vector<ConnectionOptions> nodes);
  ~HiredisPort() override;
  HiredisPort(const HiredisPort&) = delete;
  HiredisPort& operator=(const HiredisPort&) = delete;

  std::size_t node_count() const override { return nodes_.size(); }
  Task<CallResult> call(std::size_t node, Command command) override;
  // How many connections to `node` this port has opened: a new one after a dropped one.
  std::uint64_t connection_epoch(std::size_t node) const override;
  // Never reconnects: a connection dropped since `epoch`, or replaced, sends nothing.
  Task<CallResult> call_on_connection(std::size_t node, std::uint64_t epoch, Command command) override;
  // Writes every command first, then reads the replies: one round trip for N nodes, not N.
  Task<std::vector<CallResult>> fan_out(std::vector<NodeCommand> commands) override;
  // The same, but stops reading once `decided` holds; the connections of nodes not awaited keep owing their
  // replies, which are skipped before that connection's next reply (within its command timeout).
  Task<std::vector<CallResult>> fan_out_until(std::vector<NodeCommand> commands, DecidedPredicate decided) override;
  // Pub/sub on a second connection per node, made on first use; waiting for a message blocks only other
  // pub/sub calls, never commands.
  Task<CallResult> subscribe(std::size_t node, std::string channel) override;
  Task<CallResult> subscribe_shard(std::size_t node, std::string channel) override;
  Task<CallResult> await_message(std::size_t node, std::string channel, Micros timeout) override;

  // Connects to `node` now (otherwise connections are made on first use). Throws ConnectionError.
  void connect(std::size_t node);

 private:
  struct Node;
  CallResult call_locked(std::size_t node, Command command);
  // Sends every command, then collects the replies (all of them, or until `decided` holds when given).
  std::vector<CallResult> exchange_locked(const std::vector<NodeCommand>& commands, const DecidedPredicate* decided);
  // Reads the replies owed by `waiting` (node -> command indices in send order) into `results`, from all
  // nodes at once under each node's command timeout; nodes that fail or time out get unknown outcomes.
  // With `decided`, stops once it holds on `results`, leaving the rest nullopt and owed by their nodes.
  using Waiting = std::map<std::size_t, std::deque<std::size_t>>;  // node -> its commands' indices, in send order
  void collect_replies(Waiting& waiting, SettledResults& results, const DecidedPredicate* decided);
  // collect_replies()'s steps. Moves the replies already read from each waiting node into `results`; a node
  // done, or whose connection broke, leaves `waiting`.
  void take_buffered_replies(Waiting& waiting, SettledResults& results);
  // One node: a blocking read under the socket's timeout (the command timeout).
  void read_single_node(Waiting& waiting, SettledResults& results);
  // Several nodes: polls them until one has data or the first command timeout from `started`, then reads.
  void poll_and_read(Waiting& waiting, SettledResults& results, std::chrono::steady_clock::time_point started);
  // The node's awaited commands get an unknown outcome, and its connection, out of step, is dropped.
  void fail_node(Waiting& waiting, SettledResults& results, std::size_t index, const std::string& detail);
  static std::string timeout_detail(const Node& node);
  std::string ensure_connected(Node& node);

  // Queues a pub/sub "message" or "smessage" push for await_message (the newest kMaxQueuedMessages per channel).
  void queue_message(Node& node, const Reply& push);
  // SUBSCRIBE or SSUBSCRIBE (`command`), confirmed by a push whose first element is `confirmation`.
  Task<CallResult> subscribe_with(std::size_t index, std::string channel, std::string_view command,
                                  std::string_view confirmation);

  mutable std::mutex mutex_;
  std::mutex pubsub_mutex_;  // guards each Node's subscriber connection, channels and queued messages
  std::vector<std::unique_ptr<Node>> nodes_;
};

}  // namespace lockcheck
