// lockcheck judge adapter for lockcheck's RedlockMutex (PROTOCOL.md) over every master of LOCKCHECK_REDIS:
// explore --client's reference for a quorum client (node-redlock over N masters, redis-semaphore's RedlockMutex),
// as lockcheck_judge_mutex is for a single-master one. --watchdog: renewed in the background, `use` declines a
// lost lease.
#include <lockcheck/redlock_mutex.hpp>
#include "lease_protocol.hpp"
// RedlockMutex with the lease-level API of Mutex (try_acquire, renew, release of a lease it hands back), on the
// same algorithm its lock() runs: the request loop holds one lease at a time, as the Mutex adapter does.
class RedlockLeases : public lockcheck::RedlockMutex {
 public:
  using RedlockMutex::RedlockMutex;
  std::optional<lockcheck::Lease> try_acquire(lockcheck::Micros wait) {
    lockcheck::AcquireResult result = lockcheck::run_sync(algorithm().acquire(key(), wait));
    if (result.status == lockcheck::AcquireStatus::unreachable) throw lockcheck::ConnectionError("no master answered: " + result.detail);
    if (result.status == lockcheck::AcquireStatus::unknown) throw lockcheck::UnknownOutcome(result.detail);
    return result.status == lockcheck::AcquireStatus::acquired ? std::move(result.lease) : std::nullopt;
  }
  lockcheck::ReleaseStatus release(lockcheck::Lease& lease) { return lockcheck::run_sync(algorithm().release(lease)); }
  lockcheck::RenewStatus renew(lockcheck::Lease& lease) { return lockcheck::run_sync(algorithm().renew(lease)); }
};
int main(int argc, char** argv) {
  using namespace lockcheck_judge;
  if (const std::string topology = env("LOCKCHECK_TOPOLOGY", "redlock"); topology == "cluster" || topology == "sentinel") {
    std::cerr << "lockcheck_judge_redlock: independent masters (every address), not LOCKCHECK_TOPOLOGY=" << topology << "\n"; return 2;
  }
  lockcheck::Client client(connections());
  const bool renewing = argc > 1 && std::string(argv[1]) == "--watchdog";
  RedlockLeases redlock(client, env("LOCKCHECK_KEY", "lock"), lock_options(renewing));
  serve(client, redlock, "lockcheck RedlockMutex", renewing);
}
