#pragma once
// Per-connection state: the client's identity, its subscriptions, its open transaction and watched keys.
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "lockcheck/reply.hpp"

namespace lockcheck::mock {

// MULTI ... EXEC: commands queued until EXEC; `aborted` after a command was refused while queueing.
struct Transaction {
  bool open = false;
  bool aborted = false;
  std::vector<Command> queued{};
};

// A WATCHed key: its change counters when watched, and whether it had already expired then.
struct WatchedKey {
  std::string key;
  std::uint64_t changes = 0;
  std::uint64_t non_expiry_changes = 0;
  bool expired_at_watch = false;
};

struct Session {
  std::int64_t client_id = 0;
  std::set<std::string> channels{};  // SUBSCRIBEd channels; non-empty = RESP2 subscribed mode
  // Replies after the one execute() returned, for commands that answer more than once
  // (SUBSCRIBE a b c confirms each channel). The transport sends and clears them.
  std::vector<Reply> extra_replies{};
  bool close_requested = false;  // QUIT
  Transaction transaction{};
  std::vector<WatchedKey> watched{};
};

}  // namespace lockcheck::mock
