#pragma once
// bounded_unavailability's clause for locks over independent masters (meta "quorum"): with a majority of the
// masters up, nobody holding the lock and nothing between the acquirers and the masters, the lock is to be had.
// A stretch longer than the bound (bounded_unavailability gives one TTL: a majority grants in one round trip) in
// which every acquire failed so is the lock that never locks (a multi-lock
// that needs every master, with one down: redisson/redisson#5220); Redlock's majority takes it.
#include <cstdint>
#include <vector>

#include "history.hpp"

namespace lockcheck::properties {

struct UnavailableStretch {
  std::int64_t from_us = 0;  // the first failed acquire's invoke
  std::int64_t to_us = 0;    // the last one's fail
  std::vector<std::int64_t> witnesses;  // those two lines
  std::int64_t failed = 0;   // failed acquires in the stretch
};

// The stretches longer than `bound_us` in which every acquire of the lock failed though nobody held it (no
// acquire ok'd lease of anyone's, a crashed holder's counted to its validity), a majority of the nodes were up,
// no loss period or slow node was on, no node clock ran late, nothing moved the masters (failover, split, slot
// migration), and the failing process was neither paused nor partitioned. Empty for a history without
// a quorum (a lock on one master is judged by the dead-holder clause only).
std::vector<UnavailableStretch> quorum_lock_unavailable(const History& history, std::int64_t bound_us);

}  // namespace lockcheck::properties
