#pragma once
// One catalogue variant's facts in one place (shared/DESIGN.md, "Lock variants"): how to build it, how it keeps
// a lock in Redis, whether a watchdog can renew it, the public type that serves it, and what a comparison must
// give it to be exercised at all. The rows are the table in variant_table.cpp; the library (make_lock, the
// public types), the simulator, the real backend's workers and the comparison planner all read them through
// registry.hpp, so adding a variant is adding a row. Plain data only: the library knows neither the simulator
// nor the planner, which turn these numbers into their own configurations.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "lockcheck/clock.hpp"
#include "lockcheck/entropy.hpp"
#include "lockcheck/lock_algorithm.hpp"
#include "lockcheck/lock_options.hpp"
#include "lockcheck/owned_lock.hpp"
#include "lockcheck/port.hpp"
#include "lockcheck/variants/variant_params.hpp"

namespace lockcheck {

// How a variant keeps one lock in Redis, declared so a recorded history can say it (the checkers judge only
// keys they know are locks, and judge a quorum lock as one lock): the keys it writes for `key` besides `key`
// itself, each held jointly by readers (`shared`) or by one owner, and how many nodes' instances make one
// hold (Redlock: a majority of its masters; 0: each node's instance is a hold of its own).
struct LockShape {
  struct DerivedKey {
    std::string key;
    bool shared = false;
  };
  std::vector<DerivedKey> derived_keys;
  // Keys that hold no lock but carry state the lock's guarantee rests on (fenced: the fencing counter).
  std::vector<std::string> state_keys;
  std::size_t quorum = 0;
};

// Whether a WatchdogLock may wrap the variant (VariantParams::wrap_in_watchdog).
enum class Renewal : std::uint8_t {
  by_watchdog,        // it can: the watchdog renews through the variant's own renew()
  in_background,      // it renews itself (and needs VariantParams::spawner); a second renewer is refused
  with_renew_script,  // `script`: only when the user gave a renew.lua
  refused,            // never: VariantRow::refusal says why
};

// What `lockcheck compare` gives the variant beyond the workload every row shares, so that the comparison
// exercises it: Redlock's quorum needs independent masters, reentrant variants nested acquires, read-write
// variants readers, renewing ones holds past the TTL (tools/compare_plan/fault_families.cpp applies it).
struct ComparisonWorkload {
  int masters = 1;                // independent masters (Redlock)
  int replicas = 0;               // asynchronous replicas of master 0 (token-wait: for WAIT to count)
  std::uint32_t nest_every = 0;   // every Nth acquire re-enters
  std::uint32_t readers_ppm = 0;  // share of reads
  bool fencing_on_writes = false; // the resource rejects writes with a stale fencing token
  std::int64_t hold_min_ms = 50;
  std::int64_t hold_max_ms = 200;
  std::int64_t wait_ms = 2000;
  std::uint32_t permits = 1;      // a semaphore's size (counts_permits): more holders than one at once
  std::uint32_t latch_count = 2;  // a latch's count (counts_down): the clients that count down, the others await
};

using VariantFactory = std::unique_ptr<LockAlgorithm> (*)(Port& port, Clock& clock, Entropy& entropy,
                                                          const LockOptions& options, const VariantParams& params);

struct VariantRow {
  std::string_view id;  // the catalogue id: scenario files' `variant`, compare's rows
  VariantFactory make;  // the variant itself, unwrapped; make_lock() adds the watchdog a caller asks for
  bool waits_for_replicas = false;  // WAITs for replicas after its grant: reads [token_wait] (TokenWaitOptions)
  bool user_scripts = false;  // built from the user's Lua files (VariantParams::scripts): nothing to run without
  // What it can do beyond acquire and release (capabilities.hpp: scenario files are checked against these).
  bool reentrant = false;       // a holder may acquire its own lock again
  bool shared_mode = false;     // has acquire_shared (readers)
  bool fencing_tokens = false;  // hands out an increasing fencing token with each lease
  // A semaphore: up to VariantParams::permits holders at once, each with a lease of its own. Histories say so
  // (meta "permits"), and permit_safety judges them instead of the mutual exclusion checkers.
  bool counts_permits = false;
  // A count-down latch (a LatchAlgorithm, latch_algorithm.hpp): no lock at all. The workload counts it down and
  // awaits it (meta "latch"), and the latch property judges it instead of every lock property.
  bool counts_down = false;
  // A fair lock: waiters are granted in the order they arrived. Histories say so (meta "fair"), and `fairness`
  // judges them (and bounded_unavailability counts a waiter that died in the queue as it counts a dead holder).
  bool grants_in_order = false;
  Renewal renewal = Renewal::by_watchdog;
  std::string_view refusal{};  // Renewal::refused: why a watchdog cannot wrap it
  // Keys and quorum beyond the plain "one key, one owner per node" (nullptr); `masters`: the nodes it is given.
  LockShape (*shape)(const std::string& key, std::size_t masters) = nullptr;
  std::string_view public_type{};  // the C++ type users link ("Mutex"), or "" for the broken variants kept for study
  // The catalogue's correct lock of the same kind (a single-instance lease, a quorum, a reentrant hash, a fenced
  // lock, a read-write lock): what `lockcheck explore` runs under a find's schedule to tell the lock's own bug
  // from a limit of the fault model (shared/DESIGN.md, "Own bug or known limit"). Its own id for the reference
  // locks themselves.
  std::string_view reference{};
  OwnedLockOptions owned{};      // what the public type asks of the OwnedLock core its threads share
  ComparisonWorkload comparison{};
};

}  // namespace lockcheck
