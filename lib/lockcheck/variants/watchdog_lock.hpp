#pragma once
// `watchdog` — a lock kept alive by background renewal while its holder works, as Redisson's lock
// watchdog does: every ttl/3 the renewal loop extends the key if (and only if) it still holds our token.
//
// Where it comes from: the articles' "watchdog" section (a daemon thread that renews the lock while the
// business code runs) and Redisson's lockWatchdogTimeout; DESIGN.md's `watchdog`. Built over any inner
// variant's renew(): over `token` that is compare-and-pexpire, so renewal never extends someone else's lock
// (`watchdog-unchecked` is the version that does, lockcheck::broken).
//
// What it promises, beyond the inner lock:
//   * a live holder that can reach Redis keeps the lock however long it works, up to max_hold (after which
//     renewal stops and the lock expires by its TTL: a hung-but-alive holder cannot keep it forever);
//   * renewal stops strictly before release: release() stops the loop and waits for a renewal in flight
//     before it sends its own command, so no renewal of ours reaches the key after our release;
//   * fail-stop: the first renewal that finds the key no longer ours marks the lease lost (Lease::lost(),
//     seen by every copy of the lease) and calls on_lost; a renewal that gets no reply keeps the old
//     validity and the loop stops once that has run out, also signalling the loss.
// What it cannot promise: the loop runs in the holder's process, so a stop-the-world pause longer than the
// TTL stops renewal too and the holder wakes up believing it still holds the lock (client-level mutual
// exclusion breaks, as for every TTL lock; only fencing protects the resource). Failover and server clock
// jumps break it as they break the inner lock.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "lockcheck/clock.hpp"
#include "lockcheck/lock_algorithm.hpp"
#include "lockcheck/spawner.hpp"

namespace lockcheck {

// What the renewal loop did, for observers (metrics, logs, the simulator's history).
struct RenewalEvent {
  enum class Kind { renewing, renewed, lost, unknown, stopped };
  Kind kind = Kind::renewing;
  std::string key;
  std::string token;
  MonoTime valid_until{};  // renewed: the new validity (monotonic clock)
  std::string detail;      // stopped: why (released, max_hold, max_renewals, validity ran out, lost)
};
using RenewalObserver = std::function<void(const RenewalEvent&)>;

struct WatchdogOptions {
  // Renew every ttl / renew_divisor (Redisson: lockWatchdogTimeout / 3).
  std::uint32_t renew_divisor = 3;
  // 0: no cap. Otherwise renewal stops after this many successful renewals (the article's N-times cap,
  // used by `client-reentrant`; a cap silently ends a long hold, which is its weak spot).
  std::uint32_t max_renewals = 0;
  // Renewal stops this long after the acquire, so a holder that never releases cannot keep the lock forever.
  Millis max_hold{Millis(3'600'000)};
  // Called (from the renewal loop: in production its own thread) when renewal learns the lock is lost, or
  // stops because the validity ran out without a renewal. Must not throw.
  std::function<void(const std::string& key)> on_lost{};
  RenewalObserver observer{};
};

// Throws InvalidArgument for a divisor below 2 or a max_hold that is not positive.
void validate_watchdog_options(const WatchdogOptions& options);

class WatchdogLock : public LockAlgorithm {
 public:
  // `inner` does the locking; its renew() is what the loop calls. `spawner` runs the loop beside the
  // holder; `clock` paces it. Throws InvalidArgument for bad options.
  WatchdogLock(std::unique_ptr<LockAlgorithm> inner, Clock& clock, Spawner& spawner, Millis ttl,
               WatchdogOptions options);
  ~WatchdogLock() override;

  Task<AcquireResult> acquire(std::string key, Micros wait) override;
  Task<AcquireResult> acquire_with_ttl(std::string key, Micros wait, Millis ttl) override;
  // A read-write inner lock's shared acquire, renewed like any other lease (the inner renew() tells the
  // modes apart); an inner lock without a shared mode throws InvalidArgument as it would unwrapped.
  Task<AcquireResult> acquire_shared(std::string key, Micros wait) override;
  // Stops the renewal loop (waiting for a renewal in flight), then releases through the inner lock.
  Task<ReleaseStatus> release(Lease& lease) override;
  Task<ReleaseStatus> release_shared(Lease& lease) override;
  Task<RenewStatus> renew(Lease& lease) override;

 protected:
  // `fail_stop`: stop renewing (and signal the loss) once the validity ran out without a renewal. Only the
  // deliberately broken `watchdog-unchecked` turns it off, as the article's first version had no such check.
  WatchdogLock(std::unique_ptr<LockAlgorithm> inner, Clock& clock, Spawner& spawner, Millis ttl,
               WatchdogOptions options, bool fail_stop);
  // Asks every running renewal loop to stop, without waiting (client-reentrant's shared flag).
  void stop_all_renewals();

 private:
  // One renewal loop per token; reentrant inner locks hand the same token to nested acquires.
  struct Watch {
    std::shared_ptr<Spawned> loop;
    std::shared_ptr<LeaseRenewal> renewal;
    std::uint32_t holds = 0;
  };
  void watch(Lease& lease);
  // Stops the lease's renewal (waiting for a renewal in flight); returns the renewal state whose loop the
  // caller must wake after releasing, or null when there is none left to wake.
  Task<std::shared_ptr<LeaseRenewal>> stop_watching(Lease& lease);
  Task<void> renewal_loop(Lease lease, std::shared_ptr<LeaseRenewal> renewal);
  void notify(RenewalEvent::Kind kind, const Lease& lease, std::string detail = {});
  void signal_lost(const Lease& lease, LeaseRenewal& renewal, const char* why);

  std::unique_ptr<LockAlgorithm> inner_;
  Clock& clock_;
  Spawner& spawner_;
  Millis ttl_;
  WatchdogOptions options_;
  bool fail_stop_;
  std::mutex watches_mutex_;  // production: several threads may acquire and release through one lock
  std::map<std::string, Watch> watches_;
  std::vector<std::shared_ptr<Spawned>> stopping_;  // loops told to stop, not yet seen finished
};

}  // namespace lockcheck
