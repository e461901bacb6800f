#pragma once
// reentrancy's counting rule for the outermost release: once a process has released its last hold of a lock
// (release ok, "released", nothing of its still held by the ops), the lock must count no hold of its any more.
// A hash lock whose count went above the acquisitions (Redisson's acquire script re-sent after a lost reply
// counts twice: redisson/redisson #4822) keeps the owner's field after that release: the key then expires
// still naming the owner, or the owner's next acquire re-enters the hold instead of creating the key.
#include <cstdint>
#include <string>
#include <vector>

#include "history.hpp"

namespace lockcheck::properties {

struct ReleasedHoldLeft {
  std::vector<std::int64_t> witnesses;  // the release ok, then the server line that shows the hold still counted
  std::string cause;
};

// Every such release, in history order; none for a lock that counts no holds (no HINCRBY in its server lines).
// Not judged: a process with an acquire or a release whose outcome stayed
// unknown (`info`) since the key was last freed (that acquire may have counted a hold, that release may not have
// taken one away; the lock says so), counts a promoted replica took over from a master that had newer writes
// (F5: written within the replication lag before the failover), copies carried by a failover (replicas record no key events), and a copy on
// a node that is then one of two masters of the data (a failed-over master restarted, a split-brain's old one).
std::vector<ReleasedHoldLeft> released_holds_left(const History& history);

}  // namespace lockcheck::properties
