#pragma once
// `watchdog-unchecked` — DELIBERATELY BROKEN, for study. Do not use it to protect anything.
//
// What it does: the `token` lock kept alive by a background renewal loop (as `watchdog`), except that the
// renewal is a plain `PEXPIRE key ttl`: it extends the key if it exists, whoever holds it, and the loop keeps
// going after its validity ran out.
//
// Where it comes from: the articles' first watchdog (section 6): a daemon thread that does `expire(key)`
// every ttl/3 while the business code runs, with no check that the key is still ours.
//
// Where it breaks: the loop lives in the holder's process, so a stop-the-world pause longer than the TTL
// freezes it too. The key expires, another client acquires it, and when the paused process resumes its
// overdue renewal extends the *other* client's lock (owner_only_release). The holder itself, unaware, keeps
// working past its validity. See scenarios/watchdog-unchecked-pause.toml; the fix is `watchdog`'s
// compare-and-pexpire renewal and its fail-stop.
#include <memory>

#include "lockcheck/variants/single_key_lock.hpp"
#include "lockcheck/variants/watchdog_lock.hpp"

namespace lockcheck::broken {

// The `token` lock with THE BUG in its renewal: PEXPIRE without a token check.
class UncheckedRenewTokenLock final : public detail::SingleKeyLock {
 public:
  UncheckedRenewTokenLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, std::size_t node = 0)
      : SingleKeyLock(port, clock, entropy, options, node) {}

 protected:
  Task<CallResult> renew_call(const std::string& key, const std::string& token) override;
};

class WatchdogUncheckedLock final : public WatchdogLock {
 public:
  WatchdogUncheckedLock(Port& port, Clock& clock, Entropy& entropy, const LockOptions& options, Spawner& spawner,
                        WatchdogOptions watchdog)
      : WatchdogLock(std::make_unique<UncheckedRenewTokenLock>(port, clock, entropy, options), clock, spawner,
                     options.ttl, std::move(watchdog), /*fail_stop=*/false) {}
};

}  // namespace lockcheck::broken
