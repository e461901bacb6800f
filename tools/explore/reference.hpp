#pragma once
// Own bug or known limit (shared/DESIGN.md): a find is a known limit of the fault model only if the
// catalogue's correct lock of the same kind (VariantRow::reference, or the scenario's `reference`) breaks the
// same property under the same schedule and workload too; otherwise it is the lock's own bug. A differential
// oracle: which faults a schedule holds decides nothing (known_limit.hpp only words the theory case).
//
// Two locks under one seed do not run in step (their commands differ, and so does who holds the lock when a
// pause lands), so the reference runs on the find's seed and, while it holds, on neighbouring seeds and in the
// schedule's neighbourhood: the whole schedule moved by fractions of the TTL, then each fault moved on its own
// and its duration scaled (the same faults). One violation among them makes the faults a limit of the model;
// a lock's own bug (a foreign release, a renewal that stops) no correct lock shows under any of them.
//
// A reference lock is its own reference: there the differential cannot tell, and the theory decides
// (known_limit() must name the case, or the find is the lock's own bug).
#include <cstdint>
#include <string>
#include <vector>

#include "model/run_config.hpp"

namespace lockcheck::explore {

// The reference of `config`'s lock: `named` when given (a scenario's `reference`), else its registry row's.
// Throws std::invalid_argument for a `named` that is not a catalogue variant with a reference of its own.
std::string reference_variant(const sim::RunConfig& config, const std::string& named = "");

// `config` with its lock replaced by `reference`: the same nodes, clients, workload and faults. A user's scripts
// (variant `script`) against `token` run the token scripts of scenarios/scripts/ in their place, through the
// same script path (reference_scripts.hpp): the C++ `token` lock times its commands otherwise, and under one
// seed the two would not meet the schedule in step (who holds when a clock drifts). A lock that
// renews (under a watchdog or by itself) is compared with a renewing reference. Throws std::invalid_argument when
// the workload nests acquires and the reference is not reentrant (redisson-fenced's reference, fenced): the
// reference cannot run it, and the theory decides.
sim::RunConfig with_reference_lock(const sim::RunConfig& config, const std::string& reference);

// Whether the reference of `config`'s lock can run under a watchdog: the token scripts only with a renew script
// (the user's set has one), a catalogue lock by its row.
bool reference_can_renew(const sim::RunConfig& config, const std::string& reference);

struct ReferenceJudgement {
  bool ran = false;        // false: the reference cannot run this configuration (the theory decides)
  bool violated = false;   // it broke the property too: a known limit
  std::uint64_t seed = 0;  // the seed it broke on
  std::vector<sim::FaultSpec> faults;  // the schedule it broke under (the find's, moved)
  int simulations = 0;
  std::string cause;       // its verdict's cause, when violated
};

// Runs the reference under `config`'s schedule on `seed`, then on seed+1 .. (the schedule moved) while it
// holds: at most `seeds` runs in all. Without `late_holders_count`, a reference violation whose holder acted
// after its own validity (F4: the workload's careless holder) does not count: it explains no find whose
// holders were inside their validity, where the lock broke its promise.
ReferenceJudgement judge_reference(const sim::RunConfig& config, std::uint64_t seed, const std::string& property,
                                   const std::string& reference, int seeds, bool late_holders_count = true);

}  // namespace lockcheck::explore
