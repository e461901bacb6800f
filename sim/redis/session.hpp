#pragma once
// Per-connection state: the client's identity and its subscriptions.
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "lockcheck/reply.hpp"

namespace lockcheck::mock {

struct Session {
  std::int64_t client_id = 0;
  std::set<std::string> channels{};  // SUBSCRIBEd channels; non-empty = RESP2 subscribed mode
  // Replies after the one execute() returned, for commands that answer more than once
  // (SUBSCRIBE a b c confirms each channel). The transport sends and clears them.
  std::vector<Reply> extra_replies{};
  bool close_requested = false;  // QUIT
  bool asking = false;    // cluster: ASKING was the previous command (lasts for one command)
  bool readonly = false;  // cluster: READONLY, reads may run on a replica
};

}  // namespace lockcheck::mock
