#pragma once
// What a run exercised, read from its history alone: the lock operations that ran, the faults that met a
// hold, and the "sometimes" marks (Antithesis' sometimes-assertions, FoundationDB's coverage marks) at the
// milestones where locks break. A verdict of `holds` is only as strong as what it rests on: `lockcheck run`
// reports these counts beside each verdict, and `lockcheck explore` steers its search toward runs that
// reach a mark (or a pair of marks) no earlier run reached.
//
// The marks are derived from the history rather than planted in the library, so the library stays free of
// any simulator hook and a real-Redis or external client's history is measured the same way.
#include <array>
#include <cstdint>
#include <string_view>

#include "properties/history.hpp"

namespace lockcheck::properties {

enum class Mark : std::uint8_t {
  resumed_after_validity,      // a paused holder resumed after its validity ended
  renewal_across_pause,        // a renewal was in flight when its process was paused
  release_after_expiry,        // a release was sent after the holder's validity had ended
  retried_after_unknown,       // an acquire, release or renew ran again after an unknown (info) outcome
  failover_lost_lock_key,      // a failover or restart lost a lock key the new master never had
  clock_jump_while_held,       // a client's or node's clock jumped while someone held the lock
  waiter_when_holder_died,     // a holder crashed while another client waited to acquire
  reentrant_expiry,            // the lock key expired while its owner held it more than once (nested)
  expired_while_held,          // the lock key expired on its master while its owner was still inside
  pause_during_hold,           // a holder was paused
  partition_during_hold,       // a holder was cut off from a node
  node_fault_during_hold,      // a node crashed, restarted, failed over or split while someone held the lock
  acquire_unknown,             // an acquire's outcome was unknown (info: maybe held)
  renewal_lost,                // a renewal found the lock gone
  lock_key_evicted,            // the lock key was evicted under maxmemory
  release_while_other_holds,   // a client sent a release while another client held the lock
  release_near_other_expiry,   // a release or renewal was sent while another client's key had under a tenth of its TTL left
};

inline constexpr std::size_t kMarkCount = 17;

std::string_view to_string(Mark mark);
std::string_view describe(Mark mark);  // one sentence for reports

struct Exercise {
  std::array<std::int64_t, kMarkCount> marks{};  // how often each mark was reached
  std::int64_t acquires = 0;    // acquire invokes
  std::int64_t acquired = 0;    // acquire oks
  std::int64_t releases = 0;    // release invokes
  std::int64_t renews = 0;      // renew invokes (background renewal or the workload's extend)
  std::int64_t unknown_outcomes = 0;  // info completions of acquire, release or renew
  std::int64_t faults = 0;      // fault lines (follow-up events like resume included)
  std::int64_t faults_during_hold = 0;  // fault lines while some client held the lock
  std::int64_t faults_during_ops = 0;   // fault lines while no one held it but an acquire, release or renew was in flight,
                                        // or whose lasting effect (a loss period, a partition, a clock) a later operation met

  std::int64_t count(Mark mark) const { return marks[static_cast<std::size_t>(mark)]; }
  void add(const Exercise& other);
};

Exercise exercise_of(const History& history);

}  // namespace lockcheck::properties
