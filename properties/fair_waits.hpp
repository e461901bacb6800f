#pragma once
// What `fairness` reads off a fair lock's history (meta "fair"): each acquire as a wait, from its arrival to its
// end; the stretches in which no master held the lock's key; and the faults that may legitimately cost a waiter
// its place or its turn. Facts only: fairness.cpp judges them.
#include <cstdint>
#include <string>
#include <vector>

#include "history.hpp"
#include "history_facts.hpp"

namespace lockcheck::properties {

// One acquire, from its invoke until it ended.
struct Wait {
  enum class End : std::uint8_t { granted, gave_up, unknown, crashed, open };
  std::int64_t process = 0;
  std::int64_t thread = 0;
  std::string key;
  std::int64_t from_us = 0;  // its invoke
  std::int64_t from_i = 0;
  // Its ok; a fail's last refusal (refused_at: until then it was still trying); an info; its process's crash.
  // kForever: still waiting when the history ends.
  std::int64_t until_us = kForever;
  std::int64_t until_i = -1;
  End end = End::open;
  // No other thread of its process was acquiring or holding when it began: it went straight to the lock in Redis
  // (a thread that first waits for another thread of its lock object arrives in Redis later than its invoke).
  bool straight_to_redis = true;
  bool reentry = false;  // its thread already held the key
};

// Every acquire of the history, in invoke order.
std::vector<Wait> waits_of(const History& history);

// A stretch in which no master held a lock key (no node's latest own line for it showed the key present).
struct FreeStretch {
  std::string key;
  std::int64_t from_us = 0;
  std::int64_t from_i = 0;  // the line that freed it (0: free from the start)
  std::int64_t until_us = kForever;  // the line that created it again; kForever: free at the end
};

std::vector<FreeStretch> free_stretches(const History& history);

// The faults that may cost a waiter its place in a correct fair lock: those of its own process (a pause, a
// crash, a partition, a split brain: it cannot poll), network loss, and node faults (a crash, restart, failover,
// server clock jump, slow node, eviction, slot migration: the queue or its deadlines change under everyone), and
// links that drop messages all run long (meta "lossy_links").
// Each counts from its start to its end plus `settle_us`, the time a correct lock needs to put things right.
// A client's clock and another client's crash never excuse anything: a correct fair lock trusts neither.
class FaultExcuses {
 public:
  FaultExcuses(const History& history, std::int64_t settle_us);
  // The faults of `process`, or of the network or a node, that touch [from_us, to_us], in words; "" when none.
  std::string of(std::int64_t process, std::int64_t from_us, std::int64_t to_us) const;
  // The network's and the nodes' faults alone (no process's) that touch [from_us, to_us].
  std::string of_everyone(std::int64_t from_us, std::int64_t to_us) const;

 private:
  struct Window {
    std::int64_t process = -1;  // -1: every process's (the network's, a node's)
    std::int64_t from_us = 0;
    std::int64_t until_us = 0;
    std::string words;
  };
  std::vector<Window> windows_;
  std::int64_t settle_us_;
};

}  // namespace lockcheck::properties
