#pragma once
// `latch` — the count-down latch behind lockcheck::Latch: `count` participants count down, and waiting returns
// once all of them have.
//
// What it does: one hash per latch: "count" and a field per participant that counted down, so a count_down is
// recorded by its participant's id and a retry after a lost reply (or a repeat by the same participant) is not
// counted twice (latch_count_down.lua). The hash stays after the latch opens (it expires a day after the last
// count_down), so an open latch reads open, and a latch nobody has counted down yet reads closed, never open. A
// count_down counts only once `replicas` replicas acknowledged it (WAIT), so an asynchronous failover after it
// cannot lose it; until then it is sent again (idempotent) within its budget. Waiting re-polls the count with
// backoff (latch_remaining.lua): no waiter depends on a single message.
//
// Where it comes from: the safe answer to Redisson's RCountDownLatch (`redisson-latch`: DECR, DEL and one PUBLISH
// at zero; redisson/redisson#2304, #5349).
//
// What it guarantees, on one Redis master (with `replicas` replicas when a failover is possible): a wait returns
// opened only once `count` distinct participants counted down, and within a poll interval (at most
// RetryPolicy::delay_max) plus a round trip after they have. Where it breaks: what loses acknowledged data loses
// the latch (a restart without persistence, an eviction under maxmemory, a failover to a replica that had not
// acknowledged); a waiter cut off from the master cannot see it open.
#include <cstddef>
#include <cstdint>
#include <string>

#include "lockcheck/clock.hpp"
#include "lockcheck/entropy.hpp"
#include "lockcheck/latch_algorithm.hpp"
#include "lockcheck/lock_options.hpp"
#include "lockcheck/port.hpp"

namespace lockcheck {

struct LatchReplication {
  // WAIT's numreplicas: the replicas a count_down must reach before it counts. 0: no WAIT (a single master).
  std::int64_t replicas = 0;
  Millis wait_timeout{Millis(200)};  // WAIT's timeout, per attempt
};

// How long a latch's state outlives its last count_down.
inline constexpr Millis kLatchStateLife{Millis(24LL * 3600 * 1000)};

class LatchLock final : public LatchAlgorithm {
 public:
  // Throws InvalidArgument when `count` is 0, the options are out of range or `node` does not exist.
  LatchLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, std::uint32_t count,
            LatchReplication replication = {}, std::size_t node = 0);

  Task<CountDownResult> count_down(std::string key, std::string participant, Micros budget) override;
  Task<LatchWaitResult> wait(std::string key, Micros wait) override;
  std::uint32_t count() const override { return count_; }

  // One poll: how many participants are still missing (0: open). Throws RedisError on an error reply.
  Task<CallResult> remaining(const std::string& key);

 private:
  // WAIT for the replicas: true when enough acknowledged (or none are asked for).
  Task<bool> replicated();

  Port& port_;
  Clock& clock_;
  Entropy& entropy_;
  LockOptions options_;
  std::uint32_t count_;
  LatchReplication replication_;
  std::size_t node_;
};

}  // namespace lockcheck
