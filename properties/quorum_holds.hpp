#pragma once
// Mutual exclusion of a quorum lock (Redlock), judged at the lock: two processes each holding entitled
// instances on a majority of the masters at the same true time. A double grant on one node (its clock
// jumped, it restarted empty, it evicted) breaks that only when it hands a second process a majority.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lockcheck::properties {

// One process's instance on one node, over the true time it was entitled to it: from its creation until its
// owner released it, or until its entitlement ran out even if the node dropped it earlier (the owner still
// counts on it then).
struct NodeHold {
  std::int64_t node = 0;
  std::string key;
  std::int64_t owner = -1;
  std::string token;
  std::int64_t start_us = 0;
  std::int64_t end_us = 0;
  std::int64_t created_i = 0;
};

struct QuorumFinding {
  std::int64_t count = 0;  // moments a second process reached a majority while another still had one
  std::vector<std::int64_t> witnesses;  // the first: the creations behind both majorities
  std::string cause;
};

// Sweeps the holds of each key in true time. Holds ending exactly when another starts do not overlap.
QuorumFinding two_majorities(const std::vector<NodeHold>& holds, std::int64_t quorum, std::int64_t nodes);

}  // namespace lockcheck::properties
