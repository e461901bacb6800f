// fairness (fair locks: meta "fair"). Two halves, judged on the client's ops and the masters' lines:
//  (a) no waiter is skipped: a grant (acquire ok) to B skips A when A arrived more than kArrivalSlackUs before
//      B (its invoke; the slack covers the way from the invoke to the server), was still waiting when B's ok
//      came (A's own ok came later, or A's last refusal did), and went straight to Redis (no other thread of its
//      process held or waited: those threads queue up locally first). Unless something excused it: a correct
//      fair lock drops a waiter that cannot poll (its process paused, crashed, cut off; messages lost; a node
//      fault moving the queue or its deadlines; FaultExcuses), but never one that can, whatever another client's
//      clock says or whoever else died.
//  (b) no waiter hangs: while the lock is free (no master holds its key) and a waiter waits, someone is granted
//      within kHangBound (one TTL: a correct fair lock lets a dead waiter's place lapse well within it). A waiter
//      that waited through a whole bound of a free lock with nobody granted, unexcused, hung: the lock sat free
//      in front of it (a dead waiter's place that does not lapse, a message that never came, a waiter purged and
//      not told).
// Applies to fair locks only; for others it says so, as permit_safety does for locks.
#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "checkers.hpp"
#include "describe.hpp"
#include "fair_waits.hpp"

namespace lockcheck::properties {

namespace {

constexpr std::int64_t kArrivalSlackUs = 100'000;

std::string waiter_words(const Wait& wait) {
  return wait.thread == 0 ? fmt::format("process {}", wait.process)
                          : fmt::format("process {} thread {}", wait.process, wait.thread);
}

std::string how_it_ended(const Wait& wait) {
  switch (wait.end) {
    case Wait::End::granted: return fmt::format("was granted only at t={}", format_time_us(wait.until_us));
    case Wait::End::gave_up: return fmt::format("was still refused at t={}", format_time_us(wait.until_us));
    case Wait::End::unknown: return fmt::format("was still waiting at t={}", format_time_us(wait.until_us));
    case Wait::End::crashed: return fmt::format("crashed at t={}", format_time_us(wait.until_us));
    case Wait::End::open: return "was still waiting when the run ended";
  }
  return {};
}

struct FairnessFinding {
  std::vector<std::int64_t> witnesses;
  std::string cause;
};

// (a): the first grant that skipped an earlier waiter; `judged` counts grants made while another waiter waited.
std::optional<FairnessFinding> first_skip(const std::vector<Wait>& waits, const FaultExcuses& excuses, std::int64_t& judged) {
  std::optional<FairnessFinding> found;
  for (const Wait& granted : waits) {
    if (granted.end != Wait::End::granted || granted.reentry) continue;
    const std::int64_t grant_us = granted.until_us;
    bool others_waited = false;
    for (const Wait& waiter : waits) {
      if (waiter.from_us >= grant_us) break;  // waits come in arrival order
      if (&waiter == &granted || waiter.key != granted.key || waiter.reentry) continue;
      if (waiter.process == granted.process && waiter.thread == granted.thread) continue;
      if (waiter.from_us >= grant_us || waiter.until_us <= grant_us) continue;  // not waiting at the grant
      others_waited = true;
      if (found || !waiter.straight_to_redis || waiter.from_us + kArrivalSlackUs >= granted.from_us) continue;
      if (!excuses.of(waiter.process, waiter.from_us, grant_us).empty()) continue;
      found = FairnessFinding{{waiter.from_i, granted.from_i, granted.until_i},
                      fmt::format("{} waited for '{}' from t={}; {} arrived at t={}, later, and was granted at t={} "
                                  "while {} still waited ({} {}): a later arrival went first, with no fault on {}, "
                                  "no lost messages and no node fault in between",
                                  waiter_words(waiter), waiter.key, format_time_us(waiter.from_us), waiter_words(granted),
                                  format_time_us(granted.from_us), format_time_us(grant_us), waiter_words(waiter), waiter_words(waiter),
                                  how_it_ended(waiter), waiter_words(waiter))};
    }
    if (others_waited) ++judged;
  }
  return found;
}

// (b): the first waiter that waited through a whole bound of a free lock; `judged` counts free stretches with a
// waiter that the run watched for the whole bound.
std::optional<FairnessFinding> first_hang(const History& history, const std::vector<Wait>& waits, const FaultExcuses& excuses,
                                  std::int64_t bound_us, std::int64_t& judged) {
  const std::int64_t end_us = history.end_us();
  for (const FreeStretch& free : free_stretches(history)) {
    bool watched = false;
    for (const Wait& waiter : waits) {
      if (waiter.from_us >= free.until_us) break;  // waits come in arrival order
      if (waiter.key != free.key || waiter.reentry) continue;
      if (waiter.from_us >= free.until_us || waiter.until_us <= free.from_us) continue;
      const std::int64_t since_us = std::max(free.from_us, waiter.from_us);
      if (since_us + bound_us > end_us) continue;  // too close to the end to tell
      watched = true;
      if (free.until_us <= since_us + bound_us || waiter.until_us <= since_us + bound_us) continue;
      if (!excuses.of(waiter.process, since_us, since_us + bound_us).empty()) continue;
      // Each waiter ahead whose own fault (a pause, a crash, a cut link) stalled it while this one waited keeps its
      // place for a waiter lease before it lapses (fair_lock.hpp): a correct fair lock cannot tell it from a slow
      // one, and such places lapse one after another. The bound grows by a lease for each (the gate at 1000 runs,
      // seed 67: a paused head, then the next waiter cut off just before its turn, 1.002 s in front of a free lock).
      std::int64_t stalled_ahead = 0;
      for (const Wait& ahead : waits) {
        if (ahead.from_us >= waiter.from_us) break;
        if (ahead.key != waiter.key || ahead.process == waiter.process || ahead.until_us <= since_us) continue;
        if (!excuses.of(ahead.process, since_us, std::min(ahead.until_us, free.until_us)).empty()) ++stalled_ahead;
      }
      const std::int64_t grown_us = bound_us + stalled_ahead * fair_waiter_lease_us(history.meta.ttl_ms * 1000);
      if (free.until_us <= since_us + grown_us || waiter.until_us <= since_us + grown_us) continue;
      const std::string freed = free.from_i == 0 ? std::string("from the start")
                                                 : fmt::format("from t={}", format_time_us(free.from_us));
      const std::string retaken = free.until_us == kForever
                                      ? std::string("nobody took it again before the run ended")
                                      : fmt::format("nobody took it again until t={}", format_time_us(free.until_us));
      std::vector<std::int64_t> witnesses{waiter.from_i};
      if (free.from_i > 0) witnesses.push_back(free.from_i);
      if (waiter.until_i >= 0) witnesses.push_back(waiter.until_i);
      std::sort(witnesses.begin(), witnesses.end());
      return FairnessFinding{witnesses,
                     fmt::format("'{}' was free {} and {} waited from t={}; {}: {} hung for more than the bound ({}) "
                                 "in front of a free lock, and {} (no fault on it, no lost messages, no node fault)",
                                 free.key, freed, waiter_words(waiter), format_time_us(waiter.from_us), retaken, waiter_words(waiter),
                                 format_duration_us(bound_us), how_it_ended(waiter))};
    }
    if (watched) ++judged;
  }
  return std::nullopt;
}

}  // namespace

std::int64_t fairness_hang_bound_us(std::int64_t ttl_us) { return ttl_us; }
std::int64_t fair_waiter_lease_us(std::int64_t ttl_us) { return ttl_us / 2; }

Verdict check_fairness(const History& history) {
  Verdict verdict;
  verdict.property = "fairness";
  if (!history.meta.fair || history.meta.permits > 0) {
    verdict.outcome = Outcome::unknown;
    verdict.summary = "not applicable: not a fair lock (fairness judges locks that grant waiters in arrival order: "
                      "meta \"fair\")";
    return verdict;
  }
  const std::int64_t ttl_us = history.meta.ttl_ms * 1000;
  const std::int64_t bound_us = fairness_hang_bound_us(ttl_us);
  const FaultExcuses excuses(history, unavailability_bound_us(ttl_us));
  const std::vector<Wait> waits = waits_of(history);
  std::int64_t grants_judged = 0;
  std::int64_t stretches_judged = 0;
  std::optional<FairnessFinding> skip = first_skip(waits, excuses, grants_judged);
  std::optional<FairnessFinding> hang = first_hang(history, waits, excuses, bound_us, stretches_judged);
  const std::optional<FairnessFinding>& first = skip ? skip : hang;
  if (first) {
    verdict.witnesses = first->witnesses;
    verdict.cause = first->cause;
  }
  conclude(verdict, (skip ? 1 : 0) + (hang ? 1 : 0), grants_judged + stretches_judged,
           skip ? fmt::format("a waiter was skipped by a later arrival{}", hang ? ", and one hung at a free lock" : "")
                : fmt::format("a waiter hung at a free lock for more than {}", format_duration_us(bound_us)),
           "not exercised (no grant while another process waited, no free lock with a waiter)",
           fmt::format("{} grant(s) made while others waited, all in arrival order (slack {}); {} free stretch(es) "
                       "with a waiter, each handed on within {}",
                       grants_judged, format_duration_us(kArrivalSlackUs), stretches_judged,
                       format_duration_us(bound_us)));
  return verdict;
}

}  // namespace lockcheck::properties
