// Simulated threads sharing one lock object of the public API (issue 15, theory row F23): several coroutines
// of one simulated client process, each an owner of the same OwnedLock over the unchanged `token` algorithm,
// every section outliving the TTL. The core must keep each thread's lease its own; the single-slot design
// the public Mutex had before (one lease per object, no local wait) is run the same way and must be caught.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "core/world.hpp"
#include "lockcheck/owned_lock.hpp"
#include "lockcheck/variants/token_lock.hpp"

namespace lockcheck::sim {
namespace {

constexpr std::int64_t kTtlUs = 100'000;
constexpr std::int64_t kHoldUs = 150'000;  // every section outlives the TTL
constexpr int kThreads = 3;
constexpr int kRounds = 3;

namespace broken {

// The single-slot design: one lease per lock object, whichever thread took it last; no local wait, so a
// second thread races the holder in Redis and takes the key once the holder's TTL ran out, and the first
// thread's release then frees the second one's lease.
class SingleSlotLock {
 public:
  explicit SingleSlotLock(LockAlgorithm& algorithm) : algorithm_(algorithm) {}
  Task<AcquireResult> acquire(OwnerId, Micros wait) {
    AcquireResult result = co_await algorithm_.acquire("lock", wait);
    if (result.status == AcquireStatus::acquired) held_ = result.lease;
    co_return result;
  }
  std::optional<Lease> lease(OwnerId) const { return held_; }
  Task<ReleaseStatus> release(OwnerId) {
    if (!held_) co_return ReleaseStatus::not_owned;
    Lease lease = *std::exchange(held_, std::nullopt);
    co_return co_await algorithm_.release(lease);
  }

 private:
  LockAlgorithm& algorithm_;
  std::optional<Lease> held_;
};

}  // namespace broken

struct Section {
  OwnerId owner = 0;
  std::string token;           // the lease this thread acquired
  std::string released_token;  // the lease its release went to
  std::int64_t start_us = 0;
  std::int64_t end_us = 0;
};

template <typename Lock>
Task<void> run_thread(World& world, Lock& lock, OwnerId owner, std::vector<Section>& sections) {
  ClientProcess& process = world.client(0);
  for (int round = 0; round < kRounds; ++round) {
    const AcquireResult got = co_await lock.acquire(owner, Micros(5'000'000));
    if (got.status == AcquireStatus::acquired) {
      Section section;
      section.owner = owner;
      section.token = got.lease->token;
      section.start_us = world.scheduler().now();
      co_await process.clock().sleep(Micros(kHoldUs));
      section.end_us = world.scheduler().now();
      const std::optional<Lease> releasing = lock.lease(owner);
      section.released_token = releasing ? releasing->token : "";
      (void)co_await lock.release(owner);
      sections.push_back(section);
    }
    co_await process.clock().sleep(Micros(1000));
  }
}

struct Findings {
  std::size_t sections = 0;
  int overlaps = 0;            // two threads inside at once
  int foreign_releases = 0;    // a release that went to another thread's lease
};

template <typename MakeLock>
Findings run_threads(MakeLock make_lock) {
  RunConfig config;
  config.clients = std::vector<ClientConfig>(1);
  config.nodes = std::vector<NodeConfig>(1);
  World world(config, 7);
  ClientProcess& process = world.client(0);
  LockOptions options;
  options.ttl = Millis(kTtlUs / 1000);
  TokenLock algorithm(process.port(), process.clock(), process.entropy(), options);
  auto lock = make_lock(algorithm, process.clock());
  std::vector<Section> sections;
  for (OwnerId thread = 1; thread <= kThreads; ++thread) {
    (void)process.spawn(run_thread(world, *lock, thread, sections));
  }
  world.scheduler().run_until(60'000'000, 10'000'000);

  Findings findings;
  findings.sections = sections.size();
  for (const Section& section : sections) {
    if (section.released_token != section.token) ++findings.foreign_releases;
    for (const Section& other : sections) {
      if (other.owner < section.owner && other.start_us < section.end_us && section.start_us < other.end_us) {
        ++findings.overlaps;
      }
    }
  }
  return findings;
}

TEST(SimThreads, OwnedLockKeepsEachThreadsLeaseItsOwnPastTheTtl) {
  const Findings findings = run_threads([](LockAlgorithm& algorithm, Clock& clock) {
    return std::make_unique<OwnedLock>(algorithm, clock, "lock");
  });
  EXPECT_EQ(findings.sections, std::size_t{kThreads * kRounds}) << "every thread gets every round in turn";
  EXPECT_EQ(findings.overlaps, 0);
  EXPECT_EQ(findings.foreign_releases, 0);
}

TEST(SimThreads, TheSingleSlotDesignIsCaught) {
  const Findings findings = run_threads([](LockAlgorithm& algorithm, Clock&) {
    return std::make_unique<broken::SingleSlotLock>(algorithm);
  });
  // Thread 1 holds from t0; threads 2 and 3 poll Redis and one takes the key at t0 + TTL, overwriting the
  // slot; thread 1's release at t0 + 150 ms frees that lease, so the third thread enters inside the second's.
  EXPECT_GT(findings.overlaps, 0);
  EXPECT_GT(findings.foreign_releases, 0);
}

}  // namespace
}  // namespace lockcheck::sim
