#pragma once
// `client-reentrant` — reentrancy counted in the client, over the `token` lock, with a renewal loop capped
// at N renewals and one renewal switch shared by every lock the object holds.
//
// What it does: the first acquire of a key takes the `token` lock and starts renewal (every ttl/3, as
// `watchdog`); a nested acquire of a key this object already holds only counts (no Redis command) and gets
// the same lease; each release counts down and only the outermost one releases in Redis. Renewal stops after
// `max_renewals` renewals (default 3), and the outermost release of ANY key stops the renewal of every key.
//
// Where it comes from: the articles' Java class (a ThreadLocal map of hold counts, a renewal thread that
// renews "N times", and one `volatile boolean` renewal flag for the whole class).
//
// What it guarantees: correct reentrancy within one object (use one per thread, like the ThreadLocal it
// copies); the inner lock's server-level exclusion and owner-only release.
// Where it breaks (both silently: the holder is not told):
//   * the renewal cap: a hold longer than ttl * (max_renewals + 1) outlives its lock in a fault-free run,
//     and another client acquires while the holder still works (client-level mutual exclusion;
//     scenarios/client-reentrant-renewal-cap.toml);
//   * the shared switch: releasing lock A stops the renewal of lock B held by the same object, so B
//     expires under its holder after its TTL (lib/test/watchdog_redis_test.cpp shows it on real Redis).
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "lockcheck/entropy.hpp"
#include "lockcheck/lock_options.hpp"
#include "lockcheck/port.hpp"
#include "lockcheck/variants/watchdog_lock.hpp"

namespace lockcheck::broken {

class ClientReentrantLock final : public WatchdogLock {
 public:
  // The article's renewal cap.
  static constexpr std::uint32_t kDefaultMaxRenewals = 3;

  // `watchdog.max_renewals` 0 means kDefaultMaxRenewals here.
  ClientReentrantLock(Port& port, Clock& clock, Entropy& entropy, const LockOptions& options, Spawner& spawner,
                      WatchdogOptions watchdog);

  Task<AcquireResult> acquire(std::string key, Micros wait) override;
  Task<AcquireResult> acquire_with_ttl(std::string key, Micros wait, Millis ttl) override;
  Task<ReleaseStatus> release(Lease& lease) override;

 private:
  struct Hold {
    Lease lease;
    std::uint32_t count = 0;
  };
  std::mutex holds_mutex_;
  std::map<std::string, Hold> holds_;  // key -> our hold on it
};

}  // namespace lockcheck::broken
