#pragma once
// Every lock variant by its catalogue id (shared/DESIGN.md), built over the given seams. The simulator,
// the command line and the comparison reports construct variants only through here.
#include <memory>
#include <string>
#include <vector>

#include "lockcheck/clock.hpp"
#include "lockcheck/entropy.hpp"
#include "lockcheck/lock_algorithm.hpp"
#include "lockcheck/lock_options.hpp"
#include "lockcheck/port.hpp"
#include "lockcheck/spawner.hpp"
#include "lockcheck/variants/script_lock.hpp"
#include "lockcheck/variants/watchdog_lock.hpp"
#include "lockcheck/variants/token_wait_lock.hpp"

namespace lockcheck {

// The ids make_lock() accepts, in catalogue order.
const std::vector<std::string>& variant_ids();

// What some variants need beyond the common options.
struct VariantParams {
  UserScripts scripts;  // `script`: the user's Lua sources
  // The renewing variants (watchdog, watchdog-unchecked, client-reentrant): where their renewal loop runs
  // (required for them), and its options (observer, lost-lock callback, caps).
  Spawner* spawner = nullptr;
  WatchdogOptions watchdog{};
  TokenWaitOptions token_wait{};  // `token-wait`: replicas to wait for, WAIT timeout
  // Wrap the variant in a WatchdogLock (renewal every ttl / watchdog.renew_divisor through the variant's own
  // renew(), fail-stop, loss signal), needing `spawner`: any variant that can renew, including `script` with a
  // renew.lua. make_lock throws InvalidArgument (watchdog_refusal's reason) for one that cannot.
  bool wrap_in_watchdog = false;
};

// Why `id` cannot be wrapped in a watchdog (VariantParams::wrap_in_watchdog), or "" when it can:
// `watchdog`, `watchdog-unchecked`, `client-reentrant` and `redisson-like` already renew in the background,
// and `script` renews only with a renew.lua (`has_renew_script`). Unknown ids are make_lock's to reject.
std::string watchdog_refusal(const std::string& id, bool has_renew_script);

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
// `masters`: the nodes the lock is given (Redlock's independent masters). Throws InvalidArgument for an
// unknown id.
LockShape lock_shape(const std::string& id, const std::string& key, std::size_t masters);

// Throws InvalidArgument naming the known ids when `id` is unknown.
std::unique_ptr<LockAlgorithm> make_lock(const std::string& id, Port& port, Clock& clock, Entropy& entropy,
                                         const LockOptions& options, const VariantParams& params = {});

}  // namespace lockcheck
