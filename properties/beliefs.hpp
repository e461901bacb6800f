#pragma once
// Belief intervals: when, in true time, each process believed it held each lock. The client-level
// mutual exclusion checker compares them; others use the hold bookkeeping.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "history.hpp"

namespace lockcheck::properties {

// One stretch of belief: [start_us, end_us) in true time, end_us > start_us.
struct Belief {
  std::int64_t process = 0;
  std::int64_t thread = 0;  // Op::thread: a process's threads hold apart
  std::string key;
  std::string token;
  std::int64_t start_us = 0;
  std::int64_t end_us = 0;
  std::int64_t start_i = 0;  // the acquire ok (or the renew ok that started a new stretch after a gap)
  std::string end_reason;    // "valid_until", "release", "crash", "renew lost", "history end", "acted"
  std::int64_t valid_until_us = 0;  // the validity the client had when the stretch ended
  std::int64_t acted_i = -1;  // end_reason "acted": the resource op done after the validity ran out
  bool shared = false;        // a read (shared) hold of a read-write lock: compatible with other reads
};

// "In words": "process 2", or "process 2 thread 3" for one of several threads sharing a lock object.
std::string holder_name(const Belief& belief);

// Process p (each of its threads, when ops name one) believes it holds key k from an acquire ok until min(valid_until, its release invoke, its crash,
// a renew that reports the lock lost, the end of the run). A renew ok moves valid_until; a renew ok that
// arrives after the validity already ran out starts a new stretch (the gap in between was not believed).
// Nested acquires (reentrancy) count holds; the stretch ends when the outermost hold is released.
// An acquire `info` (maybe held) and `fail` never start a stretch (S2, S3).
// One extension: a process that reads or writes the resource while inside its critical section (after
// acquire ok, before its release invoke or crash) acts on the belief that it holds the lock, even when its
// validity ran out meanwhile (it was paused after checking it: F4, F14, S11). Its stretch then reaches that
// action. Without it a stop-the-world pause could never show at the client level, which is the point of
// Kleppmann's argument.
std::vector<Belief> belief_intervals(const History& history);

// The owner's own lease, for a lock instance the node keeps without a deadline (a client-timestamp lock:
// the deadline lives in the value, not in a TTL). Such an instance is entitled only while its owner believes
// it holds the lock (its acquire's validity, renewals, until its release or crash), never forever.
class OwnerLeases {
 public:
  explicit OwnerLeases(const History& history);
  // When `process`'s belief in `key` that the instance created at `t_us` stands for ends, in true time and
  // without the late-action extension: the belief carrying `token` when one does, else the one current at
  // `t_us` or starting within a TTL after it (the acquire's reply follows the node's change). `t_us` when the
  // process never believed it held that instance (its acquire failed or its outcome stayed unknown).
  std::int64_t lease_end_us(std::int64_t process, const std::string& key, const std::string& token,
                            std::int64_t t_us) const;

 private:
  std::int64_t ttl_us_ = 0;
  std::map<std::pair<std::int64_t, std::string>, std::vector<Belief>> beliefs_;  // in start order
};

}  // namespace lockcheck::properties
