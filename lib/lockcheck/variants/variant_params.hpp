#pragma once
// What some variants need beyond the common LockOptions: the argument every registry row's factory takes.
#include "lockcheck/spawner.hpp"
#include "lockcheck/variants/script_lock.hpp"
#include "lockcheck/variants/token_wait_lock.hpp"
#include "lockcheck/variants/watchdog_lock.hpp"

namespace lockcheck {

struct VariantParams {
  UserScripts scripts;  // `script`: the user's Lua sources
  // The renewing variants (watchdog, watchdog-unchecked, client-reentrant): where their renewal loop runs
  // (required for them), and its options (observer, lost-lock callback, caps).
  Spawner* spawner = nullptr;
  WatchdogOptions watchdog{};
  TokenWaitOptions token_wait{};  // `token-wait`: replicas to wait for, WAIT timeout
  std::uint32_t permits = 1;      // the semaphores (VariantRow::counts_permits): how many holders at once
  std::uint32_t latch_count = 2;  // the latches (VariantRow::counts_down): how many count_downs open one
  // Wrap the variant in a WatchdogLock (renewal every ttl / watchdog.renew_divisor through the variant's own
  // renew(), fail-stop, loss signal), needing `spawner`: any variant that can renew, including `script` with a
  // renew.lua. make_lock throws InvalidArgument (watchdog_refusal's reason) for one that cannot.
  bool wrap_in_watchdog = false;
};

}  // namespace lockcheck
