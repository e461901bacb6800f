#pragma once
// The checkers: pure functions from a history to a verdict. Each reads only the history (sim/README.md,
// schema 1), so it judges a simulated run and a real-Redis run alike. README.md in this folder says, per
// property, what it reads, what it flags and what it deliberately never flags.
#include <cstdint>
#include <istream>
#include <map>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "history.hpp"
#include "verdict.hpp"

namespace lockcheck::properties {

// No node ever hands a lock instance to another owner while the first instance is still entitled to it.
Verdict check_mutual_exclusion_server(const History& history);
// No two processes are both inside the validity they believe they hold, in true time.
Verdict check_mutual_exclusion_client(const History& history);
// The protected resource never accepts a stale write (a lost update).
Verdict check_mutual_exclusion_resource(const History& history);
// No release or renew by one process removes or extends another process's lock instance.
Verdict check_owner_only_release(const History& history);
// No lock key is left without expiry; a dead holder's lock becomes acquirable within TTL + a bound.
Verdict check_bounded_unavailability(const History& history);
// The stated bound beyond the TTL (2 x TTL + 1 s): a lock unavailable for TTL + this is violated, so a run
// shorter than that cannot violate bounded_unavailability.
std::int64_t unavailability_bound_us(std::int64_t ttl_us);
// Nested acquire by the owner: inner release keeps the lock, reentry never shortens the TTL.
Verdict check_reentrancy(const History& history);
// Renewal stops once the lock is released; a fault-free run never loses a renewed lock.
Verdict check_renewal(const History& history);
// With fencing, the resource accepts tokens in strictly increasing order across acquisitions.
Verdict check_fencing(const History& history);

// A semaphore (meta "permits" = N) never has more than N holders at once, and never loses a permit for longer
// than the lease (+ the bound) after its holder died. Unknown for locks.
Verdict check_permit_safety(const History& history);

// A count-down latch (meta "latch" = N) opens only after N count_downs, and every await returns within the bound
// once N have returned ok. Unknown (not applicable) for locks.
Verdict check_latch(const History& history);

// A fair lock (meta "fair") grants waiters in arrival order: no later arrival is granted while an earlier waiter
// that nothing kept from polling still waits, and no waiter waits in front of a free lock for a whole bound
// (fairness_hang_bound_us) with nobody granted. Unknown for other locks.
Verdict check_fairness(const History& history);
// The bound of a free lock with a waiter in front of it: one TTL, and a waiter lease more for each waiter ahead
// that its own fault stalled meanwhile.
std::int64_t fairness_hang_bound_us(std::int64_t ttl_us);
// How long a correct fair lock keeps a waiter's place without a poll (lockcheck's fair lock: half the TTL).
std::int64_t fair_waiter_lease_us(std::int64_t ttl_us);

// All verdicts, always in this order: mutual_exclusion_server, mutual_exclusion_client,
// mutual_exclusion_resource, owner_only_release, bounded_unavailability, reentrancy, renewal, fencing,
// permit_safety, latch, fairness. A latch's history gets 'not applicable' from every property but latch.
std::vector<Verdict> check_all(const History& history);
// The one verdict of check_all named `property`, computed alone (explore's --property judges each run by
// one checker, not eleven). Throws std::invalid_argument for a name outside sim::kProperties.
Verdict check_one(const History& history, std::string_view property);

// Parse a JSONL history and run check_all. Throws ParseError (with the line number) on a bad history.
std::vector<Verdict> check_jsonl(std::istream& in);

// Figures, not a verdict: how much work got done and who waited.
struct Progress {
  std::int64_t acquisitions = 0;      // acquire ok
  std::int64_t acquire_attempts = 0;  // acquire invoke
  std::int64_t acquisitions_per_second = 0;  // per true second of the run, rounded down
  std::int64_t wait_p50_us = 0;       // acquire invoke -> ok, over successful acquisitions
  std::int64_t wait_p99_us = 0;
  std::map<std::int64_t, std::int64_t> acquisitions_by_process;  // every process that tried, even with 0
  std::vector<std::int64_t> starved_processes;  // tried at least once, never acquired
  // Ops the server refused outright ("error":true: CROSSSLOT on a cluster, CLUSTERDOWN, ...; the client
  // stopped), and the first one's text.
  std::int64_t server_errors = 0;
  std::string first_server_error;
};

Progress measure_progress(const History& history);
void to_json(nlohmann::json& out, const Progress& progress);

}  // namespace lockcheck::properties
