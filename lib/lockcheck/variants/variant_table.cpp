// The catalogue (shared/DESIGN.md, "Lock variants"): one row per variant, in catalogue order, which is the
// order of `variant_ids()`, of the comparison matrix's rows and of the public types' list.
#include <array>

#include "lockcheck/broken/appid_thread_lock.hpp"
#include "lockcheck/broken/client_reentrant_lock.hpp"
#include "lockcheck/broken/exists_then_set.hpp"
#include "lockcheck/broken/get_then_del.hpp"
#include "lockcheck/broken/redisson_latch.hpp"
#include "lockcheck/broken/redisson_multilock.hpp"
#include "lockcheck/broken/redisson_fair_lock.hpp"
#include "lockcheck/broken/redisson_fenced_lock.hpp"
#include "lockcheck/broken/redisson_permit_expirable.hpp"
#include "lockcheck/broken/redisson_retried_lock.hpp"
#include "lockcheck/broken/redisson_semaphore.hpp"
#include "lockcheck/broken/rw_hash_timestamps_lock.hpp"
#include "lockcheck/broken/rw_two_keys_lock.hpp"
#include "lockcheck/broken/set_nx_ex_del.hpp"
#include "lockcheck/broken/setnx_then_expire.hpp"
#include "lockcheck/broken/thread_id_lock.hpp"
#include "lockcheck/broken/watchdog_unchecked.hpp"
#include "lockcheck/variants/fair_lock.hpp"
#include "lockcheck/variants/fenced_lock.hpp"
#include "lockcheck/variants/latch_lock.hpp"
#include "lockcheck/variants/redisson_like_lock.hpp"
#include "lockcheck/variants/redlock.hpp"
#include "lockcheck/variants/reentrant_hash_lock.hpp"
#include "lockcheck/variants/registry.hpp"
#include "lockcheck/variants/rw_owned_lock.hpp"
#include "lockcheck/variants/script_lock.hpp"
#include "lockcheck/variants/semaphore_lock.hpp"
#include "lockcheck/variants/token_lock.hpp"
#include "lockcheck/variants/token_wait_lock.hpp"
#include "lockcheck/variants/watch_cas_lock.hpp"
#include "lockcheck/variants/watchdog_lock.hpp"

namespace lockcheck {
namespace {

// The factories. A Renewal::in_background row's factory may rely on params.spawner: make_lock() has checked it.
template <typename Lock>
std::unique_ptr<LockAlgorithm> plain(Port& port, Clock& clock, Entropy& entropy, const LockOptions& options,
                                     const VariantParams&) {
  return std::make_unique<Lock>(port, clock, entropy, options);
}

// A variant that renews in the background over the spawner, with the watchdog options.
template <typename Lock>
std::unique_ptr<LockAlgorithm> renewing(Port& port, Clock& clock, Entropy& entropy, const LockOptions& options,
                                        const VariantParams& params) {
  return std::make_unique<Lock>(port, clock, entropy, options, *params.spawner, params.watchdog);
}

std::unique_ptr<LockAlgorithm> make_watchdog(Port& port, Clock& clock, Entropy& entropy, const LockOptions& options,
                                             const VariantParams& params) {
  return std::make_unique<WatchdogLock>(std::make_unique<TokenLock>(port, clock, entropy, options), clock,
                                        *params.spawner, options.ttl, params.watchdog);
}

std::unique_ptr<LockAlgorithm> make_token_wait(Port& port, Clock& clock, Entropy& entropy, const LockOptions& options,
                                               const VariantParams& params) {
  return std::make_unique<TokenWaitLock>(port, clock, entropy, options, params.token_wait);
}

std::unique_ptr<LockAlgorithm> make_script(Port& port, Clock& clock, Entropy& entropy, const LockOptions& options,
                                           const VariantParams& params) {
  return std::make_unique<ScriptLock>(port, clock, entropy, options, params.scripts);
}

template <typename Semaphore>
std::unique_ptr<LockAlgorithm> semaphore(Port& port, Clock& clock, Entropy& entropy, const LockOptions& options,
                                         const VariantParams& params) {
  return std::make_unique<Semaphore>(port, clock, entropy, options, params.permits);
}

std::unique_ptr<LockAlgorithm> redisson_latch(Port& port, Clock& clock, Entropy& entropy, const LockOptions& options,
                                              const VariantParams& params) {
  return std::make_unique<broken::RedissonLatch>(port, clock, entropy, options, params.latch_count);
}

// The reference latch WAITs for the replicas [token_wait] names, so that a failover cannot lose a count_down.
std::unique_ptr<LockAlgorithm> latch(Port& port, Clock& clock, Entropy& entropy, const LockOptions& options,
                                     const VariantParams& params) {
  return std::make_unique<LatchLock>(port, clock, entropy, options, params.latch_count,
                                     LatchReplication{params.token_wait.replicas, params.token_wait.wait_timeout});
}

template <broken::RedissonMultiLock::Needs needs>
std::unique_ptr<LockAlgorithm> multilock(Port& port, Clock& clock, Entropy& entropy, const LockOptions& options,
                                         const VariantParams&) {
  return std::make_unique<broken::RedissonMultiLock>(port, clock, entropy, options, needs);
}

// The shapes beyond one key with one owner per node.
LockShape redlock_shape(const std::string&, std::size_t masters) {
  LockShape shape;
  shape.quorum = Redlock::quorum_of(masters);
  return shape;
}

// RedissonMultiLock: one hold is every master's member.
LockShape every_master_shape(const std::string&, std::size_t masters) {
  LockShape shape;
  shape.quorum = masters;
  return shape;
}

LockShape rw_two_keys_shape(const std::string& key, std::size_t) {
  LockShape shape;
  shape.derived_keys = {{broken::RwTwoKeysLock::read_key(key), true}, {broken::RwTwoKeysLock::write_key(key), false}};
  return shape;
}

LockShape permit_expirable_shape(const std::string& key, std::size_t) {
  LockShape shape;
  shape.state_keys = {broken::RedissonPermitExpirableSemaphore::timeouts_key(key)};
  return shape;
}

LockShape redisson_fair_shape(const std::string& key, std::size_t) {
  LockShape shape;
  shape.state_keys = {broken::RedissonFairLock::queue_key(key), broken::RedissonFairLock::timeouts_key(key)};
  return shape;
}

LockShape fair_shape(const std::string& key, std::size_t) {
  LockShape shape;
  shape.state_keys = {FairLock::queue_key(key), FairLock::deadlines_key(key)};
  return shape;
}

LockShape fenced_shape(const std::string& key, std::size_t) {
  LockShape shape;
  shape.state_keys = {FencedLock::fence_key(key)};
  return shape;
}

LockShape redisson_fenced_shape(const std::string& key, std::size_t) {
  LockShape shape;
  shape.state_keys = {broken::RedissonFencedLock::token_key(key)};
  return shape;
}

// Renewing variants hold past the TTL in a comparison, so that renewal matters.
constexpr ComparisonWorkload kHoldsPastTtl{.hold_min_ms = 500, .hold_max_ms = 2500, .wait_ms = 5000};
constexpr ComparisonWorkload kNested{.nest_every = 2};
constexpr ComparisonWorkload kHalfReaders{.readers_ppm = 500000};
// Semaphores: two permits among the three clients, and a short wait, so that refusals happen (a lost permit
// shows only when the semaphore refuses someone while too few permits are held).
constexpr ComparisonWorkload kTwoPermits{.wait_ms = 100, .permits = 2};
// Latches: two of the three clients count down, every client awaits, for longer than the latch property's bound
// (so a latch that stays closed shows), on a master with a replica (so a failover can lose a count_down).
constexpr ComparisonWorkload kLatchOfTwo{.replicas = 1, .wait_ms = 8000, .latch_count = 2};

const std::array kRows = {
    VariantRow{.id = "exists-then-set", .make = plain<broken::ExistsThenSetLock>, .reference = "token"},
    VariantRow{.id = "setnx-then-expire", .make = plain<broken::SetnxThenExpireLock>, .reference = "token"},
    VariantRow{.id = "set-nx-ex-del", .make = plain<broken::SetNxExDelLock>, .reference = "token"},
    VariantRow{.id = "token", .make = plain<TokenLock>, .public_type = "Mutex", .reference = "token"},
    VariantRow{.id = "thread-id", .make = plain<broken::ThreadIdLock>, .reference = "token"},
    VariantRow{.id = "appid-thread", .make = plain<broken::AppIdThreadLock>, .reentrant = true,
               .reference = "reentrant-hash", .comparison = kNested},
    VariantRow{.id = "reentrant-hash", .make = plain<ReentrantHashLock>, .reentrant = true,
               .reference = "reentrant-hash", .comparison = kNested},
    VariantRow{.id = "reentrant-maxttl", .make = plain<ReentrantMaxTtlLock>, .reentrant = true,
               .reference = "reentrant-hash", .comparison = kNested},
    VariantRow{.id = "client-reentrant",
               .make = renewing<broken::ClientReentrantLock>,
               .reentrant = true,
               .renewal = Renewal::in_background,
               .reference = "reentrant-hash",
               .comparison = {.nest_every = 2, .hold_min_ms = 100, .hold_max_ms = 600}},
    VariantRow{.id = "watchdog-unchecked",
               .make = renewing<broken::WatchdogUncheckedLock>,
               .renewal = Renewal::in_background,
               .reference = "watchdog",
               .comparison = kHoldsPastTtl},
    VariantRow{.id = "watchdog", .make = make_watchdog, .renewal = Renewal::in_background,
               .reference = "watchdog", .comparison = kHoldsPastTtl},
    VariantRow{.id = "rw-two-keys", .make = plain<broken::RwTwoKeysLock>, .shared_mode = true, .shape = rw_two_keys_shape,
               .reference = "rw-owned",
               .comparison = kHalfReaders},
    VariantRow{.id = "rw-hash-timestamps", .make = plain<broken::RwHashTimestampsLock>, .shared_mode = true,
               .reference = "rw-owned",
               .comparison = kHalfReaders},
    VariantRow{.id = "redlock", .make = plain<Redlock>, .shape = redlock_shape, .public_type = "RedlockMutex",
               .reference = "redlock",
               .comparison = {.masters = 5}},
    VariantRow{.id = "redisson-like",
               .make = renewing<RedissonLikeLock>,
               .reentrant = true,
               .renewal = Renewal::in_background,
               .public_type = "RedissonMutex",
               .reference = "reentrant-hash",
               .owned = {.reentrant = true},
               .comparison = {.nest_every = 2, .hold_min_ms = 500, .hold_max_ms = 2500, .wait_ms = 5000}},
    VariantRow{.id = "fenced", .make = plain<FencedLock>, .fencing_tokens = true, .shape = fenced_shape, .public_type = "FencedMutex",
               .reference = "fenced",
               .comparison = {.fencing_on_writes = true}},
    VariantRow{.id = "token-wait", .make = make_token_wait, .waits_for_replicas = true, .public_type = "ReplicatedMutex",
               .reference = "token",
               .comparison = {.replicas = 1}},
    VariantRow{.id = "rw-owned", .make = plain<RwOwnedLock>, .shared_mode = true, .public_type = "SharedMutex",
               .reference = "rw-owned",
               .comparison = kHalfReaders},
    // Its WATCH/MULTI/EXEC state lives on the connection; a background renewal on the same connection would
    // run inside the release's transaction (or break its WATCH) instead of beside it.
    VariantRow{.id = "watch-cas",
               .make = plain<WatchCasLock>,
               .renewal = Renewal::refused,
               .refusal = "variant \"watch-cas\" runs its transactions on the lock's connection, which a background "
                          "renewal would interleave with",
               .reference = "token"},
    VariantRow{.id = "get-then-del", .make = plain<broken::GetThenDelLock>, .reference = "token"},
    // No lease to renew: a permit is held until released.
    VariantRow{.id = "redisson-semaphore",
               .make = semaphore<broken::RedissonSemaphore>,
               .counts_permits = true,
               .renewal = Renewal::refused,
               .refusal = "variant \"redisson-semaphore\" hands out permits without a lease: there is nothing to renew",
               .reference = "semaphore",
               .comparison = kTwoPermits},
    VariantRow{.id = "redisson-permit-expirable",
               .make = semaphore<broken::RedissonPermitExpirableSemaphore>,
               .counts_permits = true,
               .shape = permit_expirable_shape,
               .reference = "semaphore",
               .comparison = kTwoPermits},
    VariantRow{.id = "semaphore",
               .make = semaphore<SemaphoreLock>,
               .counts_permits = true,
               .public_type = "CountingSemaphore",
               .reference = "semaphore",
               .owned = {.counting = true},
               .comparison = kTwoPermits},
    // No lease: nothing to acquire, release or renew.
    VariantRow{.id = "redisson-latch",
               .make = redisson_latch,
               .counts_down = true,
               .renewal = Renewal::refused,
               .refusal = "variant \"redisson-latch\" is a count-down latch: it holds no lease to renew",
               .reference = "latch",
               .comparison = kLatchOfTwo},
    VariantRow{.id = "latch",
               .make = latch,
               .waits_for_replicas = true,
               .counts_down = true,
               .renewal = Renewal::refused,
               .refusal = "variant \"latch\" is a count-down latch: it holds no lease to renew",
               .public_type = "Latch",
               .reference = "latch",
               .comparison = kLatchOfTwo},
    // Over N independent masters, as `redlock`; each member is Redisson's hash lock. Renewal is theirs (a
    // watchdog renews every member the lease holds).
    VariantRow{.id = "redisson-multilock",
               .make = multilock<broken::RedissonMultiLock::Needs::every_member>,
               .shape = every_master_shape,
               .reference = "redlock",
               .comparison = {.masters = 3}},
    VariantRow{.id = "redisson-redlock",
               .make = multilock<broken::RedissonMultiLock::Needs::majority>,
               .shape = redlock_shape,
               .reference = "redlock",
               .comparison = {.masters = 3}},
    VariantRow{.id = "redisson-fair", .make = plain<broken::RedissonFairLock>, .grants_in_order = true,
               .shape = redisson_fair_shape, .reference = "fair"},
    VariantRow{.id = "fair", .make = plain<FairLock>, .grants_in_order = true, .shape = fair_shape,
               .public_type = "FairMutex", .reference = "fair"},
    // redisson-like with Redisson's command retries: a re-sent acquire counts a second hold.
    VariantRow{.id = "redisson-like-retries",
               .make = renewing<broken::RedissonLikeRetriesLock>,
               .reentrant = true,
               .renewal = Renewal::in_background,
               .reference = "reentrant-hash",
               .comparison = {.nest_every = 2, .hold_min_ms = 500, .hold_max_ms = 2500, .wait_ms = 5000}},
    VariantRow{.id = "redisson-fenced",
               .make = renewing<broken::RedissonFencedLock>,
               .reentrant = true,
               .fencing_tokens = true,
               .renewal = Renewal::in_background,
               .shape = redisson_fenced_shape,
               .reference = "fenced",
               .comparison = {.nest_every = 2, .fencing_on_writes = true, .hold_min_ms = 500, .hold_max_ms = 2500,
                              .wait_ms = 5000}},
    VariantRow{.id = "script", .make = make_script, .user_scripts = true, .renewal = Renewal::with_renew_script,
               .reference = "token"},
};

}  // namespace

std::span<const VariantRow> variant_rows() { return kRows; }

}  // namespace lockcheck
