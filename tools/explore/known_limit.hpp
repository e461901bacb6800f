#pragma once
// Whether a find rests on a fault that, by the theory the checkers follow (properties/README.md; the F and S
// cases of the research notes), breaks the property for every lock of its kind: an asynchronous failover or a
// split brain loses an unreplicated grant (F5, F6, F25), a node restart without the grant on disk loses it
// (F10), a node clock that runs ahead expires a key early (F7, F9, F12), a holder paused past its validity
// writes late unless the resource fences it (F4), a node clock that steps back or runs slow keeps a dead
// holder's key past its TTL (S7). Such a find says more of the deployment than of the lock: explore names it,
// and `--without KIND` looks past it for the lock's own bugs.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/fault.hpp"
#include "model/run_config.hpp"
#include "model/workload_config.hpp"
#include "properties/verdict.hpp"

namespace lockcheck::explore {

struct KnownLimit {
  std::string because;   // what the fault does, with its theory case
  std::string fault;     // the kind to leave out to look past it (`--without`)
  std::string cases;     // the theory cases alone ("F5"), for a table
};

// `fencing`: what the resource fences (a pause cannot break a resource that fences reads and writes, nor a
// write-only one unless a stale write lands between a newer holder's read and its write). `tags`: the
// verdict's (properties::Verdict::tags): a client-level overlap by a holder past its own validity is a limit of
// every lock whose holder does not check its lease (F4, F21), whatever let the lease lapse; `fault` is empty
// then (no kind to leave out).
std::optional<KnownLimit> known_limit(std::string_view property, const std::vector<sim::FaultSpec>& faults,
                                      sim::Fencing fencing, const std::vector<std::string>& tags = {});

// known_limit on the run itself: a run's schedule with the failovers a [cluster] or the [sentinel]s made on their
// own (a node_crash that outlasted the node timeout or down-after: in its history, not in its schedule), which
// lose an unreplicated grant as a scheduled one does (F5). Such a limit is left out with the node_crash (`fault`).
// Simulates the run once when the schedule alone names no limit and the topology fails over by itself.
std::optional<KnownLimit> known_limit_of_run(std::string_view property, const sim::RunConfig& config, std::uint64_t seed,
                                             sim::Fencing fencing, const std::vector<std::string>& tags = {});

// What the run's own facts say caused the find, when a fault did and the lock kept its promise: the node took
// the first owner's instance, not a command of a process (properties::kTakenByAFault: an early expiry on a node's
// clock, a loss at a restart or a failover, an eviction, a rival master), read off the find's verdict for
// mutual_exclusion_server and off the same run's server verdict (simulated once) for a client-level or unfenced
// resource find; or a node reported the first holder's instance lost before the other acquired, though the
// nodes never saw two owners (kTakenByAFault on the client verdict: its own inner release deleted what a
// promoted replica had); or the first holder's clock ran slower than the lock's drift margin by enough to explain the
// whole overlap (properties::kHolderClockSlow); or a dead holder's lock came back late by no more than a node's
// clock was held back (properties::kLateOnNodeClock). The cause in words; nullopt otherwise. A differential reference
// can miss such a coincidence (its timing differs); these facts cannot.
std::optional<std::string> shown_by_the_run(std::string_view property, const properties::Verdict& verdict,
                                            const sim::RunConfig& config, std::uint64_t seed, sim::Fencing fencing);

}  // namespace lockcheck::explore
