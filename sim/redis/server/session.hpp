#pragma once
// Per-connection state: the client's identity, protocol, authentication, subscriptions, its open
// transaction and watched keys.
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "lockcheck/reply.hpp"

namespace lockcheck::mock {

struct AclUser;

// CLIENT REPLY: whether the transport sends replies.
enum class ReplyMode : std::uint8_t { on, off, skip_next };

// MULTI ... EXEC: commands queued until EXEC; `aborted` after a command was refused while queueing.
struct Transaction {
  bool open = false;
  bool aborted = false;
  std::vector<Command> queued{};
};

// A WATCHed key: its change counters when watched, and whether it had already expired then.
struct WatchedKey {
  std::string key;
  int db = 0;  // the database it was watched in
  std::uint64_t changes = 0;
  std::uint64_t non_expiry_changes = 0;
  bool expired_at_watch = false;
};

struct Session {
  std::int64_t client_id = 0;
  std::set<std::string> channels{};        // SUBSCRIBEd channels
  std::set<std::string> patterns{};        // PSUBSCRIBEd patterns
  std::set<std::string> shard_channels{};  // SSUBSCRIBEd shard channels
  // Replies after the one execute() returned, for commands that answer more than once
  // (SUBSCRIBE a b c confirms each channel). The transport sends and clears them.
  std::vector<Reply> extra_replies{};
  // This command's replies are pub/sub confirmations: pushes, sent whatever CLIENT REPLY says (7.0 marks
  // them CLIENT_PUSHING in both protocols). The transport reads and clears it.
  bool replies_are_pushes = false;
  bool close_requested = false;  // QUIT, or CLIENT KILL of itself
  // This command is answered with nothing at all (a second MONITOR, as Redis). The transport reads and clears it.
  bool reply_withheld = false;
  bool monitor = false;  // MONITOR ran: shown every command, refused the keyspace (monitor.hpp)
  int resp = 2;                  // the protocol HELLO chose: replies are downgraded to RESP2 unless 3
  int db = 0;                    // SELECTed database
  // The password this connection must present (`requirepass`); empty = none, everything is allowed.
  std::string requirepass{};
  bool authenticated = false;  // AUTH or HELLO ... AUTH succeeded (only consulted when the default user needs one)
  // The ACL user this connection runs as (AUTH user pass); null = the node's "default" user.
  std::shared_ptr<AclUser> user{};
  std::string name{};          // CLIENT SETNAME / HELLO SETNAME
  std::string lib_name{}, lib_ver{};  // CLIENT SETINFO
  bool no_evict = false;              // CLIENT NO-EVICT
  ReplyMode reply_mode = ReplyMode::on;
  std::string address = "127.0.0.1:0";        // peer address for CLIENT LIST (the transport sets it)
  std::string local_address = "127.0.0.1:0";  // our side
  std::int64_t connected_at_ms = 0;           // node time of the first command, for age=
  std::string_view last_command = "NULL";     // for cmd= in CLIENT LIST (a command table name)
  Transaction transaction{};
  bool running_exec = false;
  // Waiting in a blocking pop: the transport sends nothing for that command and reads no further commands
  // until the node answers it through its unblock sink.
  bool blocked = false;  // EXEC is running the queue: Redis's DENY_BLOCKING (no blocking, no SSUBSCRIBE)
  std::vector<WatchedKey> watched{};
  bool asking = false;    // cluster: ASKING was the previous command (lasts for one command)
  bool readonly = false;  // cluster: READONLY, reads may run on a replica

  // Any subscription puts a RESP2 connection in subscribed mode.
  bool subscribed() const { return !channels.empty() || !patterns.empty() || !shard_channels.empty(); }
};

}  // namespace lockcheck::mock
