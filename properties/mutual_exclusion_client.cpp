// mutual_exclusion_client: two processes both inside the validity they believe they hold, in true time.
// This is the level a pause past the TTL breaks for every auto-releasing lock (F4, F14, F21), and that
// validity computed on a bad clock breaks (F12, F13). Maybe-held (`info`) and failed acquires never
// form an interval (S2, S3); a crashed holder's belief ends at the crash; touching ends (B acquires at the
// very instant A invokes release) are not an overlap.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "beliefs.hpp"
#include "checkers.hpp"
#include "semaphore_history.hpp"
#include "describe.hpp"
#include "history_facts.hpp"
#include "model/fault.hpp"

namespace lockcheck::properties {

namespace {

// Why a stretch ended, in words.
std::string ending(const std::string& reason) {
  if (reason == "valid_until") return "when its validity ended";
  if (reason == "release") return "when it invoked release";
  if (reason == "crash") return "when it crashed";
  if (reason == "renew lost") return "when a renewal reported the lock lost";
  if (reason == "history end") return "when the run ended";
  if (reason == "acted") return "its last use of the resource";
  return reason;
}

// Why a holder's stretch was believed rather than valid, or "" when it was inside its validity: its validity
// ran out before its acquire returned (it was paused or delayed in the middle of it), or before its last use
// of the resource. A client that reports no validity of its own (meta "estimated_validity") has lockcheck's
// estimate instead, which counts no retry inside the acquire and no background refresh: said as an estimate.
std::string outside_validity(const History& history, const Belief& belief) {
  const bool estimated = history.meta.estimated_validity.contains(belief.process);
  const std::string validity =
      estimated ? fmt::format("{}'s client reports no validity of its own; lockcheck's estimate of it (the request's "
                              "sending + the TTL) ended at t={}",
                              holder_name(belief), format_time_us(belief.valid_until_us))
                : std::string();
  if (belief.valid_until_us < belief.start_us) {
    std::string text = estimated ? fmt::format("{}, before its acquire returned at t={}", validity, format_time_us(belief.start_us))
                                 : fmt::format("{}'s validity had ended at t={}, before its acquire returned at t={}",
                                               holder_name(belief), format_time_us(belief.valid_until_us),
                                               format_time_us(belief.start_us));
    if (belief.end_reason == "acted") text += fmt::format(", and it used the resource at t={} believing it held the lock", format_time_us(belief.end_us));
    return text;
  }
  if (belief.end_reason != "acted") return {};
  if (estimated) return fmt::format("{}, and it used the resource at t={} believing it held the lock", validity, format_time_us(belief.end_us));
  return fmt::format("{}'s validity ended at t={}, but it still used the resource at t={} believing it held the lock",
                     holder_name(belief), format_time_us(belief.valid_until_us), format_time_us(belief.end_us));
}

// How much longer than the key a validity counted on `process`'s clock from `from_us` to `to_us` may have lasted
// in true time: the clock's slowness beyond the lock's drift margin (the theory row's), over each stretch at one
// drift rate (a client_clock_drift sets the rate until the process's next one).
std::int64_t slow_clock_excess_us(const History& history, std::int64_t process, std::int64_t from_us, std::int64_t to_us) {
  const std::int64_t margin_ppm = sim::fault_row(sim::FaultKind::client_clock_drift).limit_back.beyond_drift_ppm;
  std::int64_t rate_ppm = 0;
  std::int64_t since_us = 0;
  double excess_us = 0;
  const auto add = [&](std::int64_t until_us) {
    const std::int64_t overlap_us = std::min(until_us, to_us) - std::max(since_us, from_us);
    if (overlap_us > 0 && -rate_ppm > margin_ppm) excess_us += static_cast<double>(overlap_us) * static_cast<double>(-rate_ppm - margin_ppm) / 1e6;
  };
  for (const Event& event : history.events) {
    const auto* fault = std::get_if<FaultEvent>(&event);
    if (fault == nullptr || !fault->is(sim::FaultKind::client_clock_drift) || fault->process != process) continue;
    if (fault->t >= to_us) break;
    add(fault->t);
    rate_ppm = fault->drift_ppm;
    since_us = fault->t;
  }
  add(to_us);
  return static_cast<std::int64_t>(excess_us);
}

std::string describe_overlap(const History& history, const Belief& first, const Belief& second) {
  std::int64_t overlap_us = std::min(first.end_us, second.end_us) - second.start_us;
  auto mode = [](const Belief& belief) { return belief.shared ? " for reading" : ""; };
  // A holder that used the resource after its validity, or whose validity ended before its acquire returned,
  // overlapped the other in belief, not in validity: the clauses after say when its validity ended.
  const std::string first_outside = outside_validity(history, first);
  std::string second_outside = outside_validity(history, second);
  const bool in_belief_only = !first_outside.empty() || !second_outside.empty();
  // One clause explains the wording: the second holder's only when its validity ended before its acquire
  // returned (news the first's clause cannot give) or when the first holder was inside its own.
  if (!first_outside.empty() && second.valid_until_us >= second.start_us) second_outside.clear();
  const auto [first_token, second_token] = short_tokens(first.token, second.token);
  std::string text = fmt::format(
      "{} believed it held '{}'{} (token {}) from t={} until t={} ({}), but {} acquired it{} "
      "(token {}) at t={}: both {} for {}",
      holder_name(first), first.key, mode(first), first_token, format_time_us(first.start_us),
      format_time_us(first.end_us), ending(first.end_reason), holder_name(second), mode(second), second_token,
      format_time_us(second.start_us), in_belief_only ? "believed they held it" : "inside their validity",
      format_duration_us(overlap_us));
  for (const std::string& clause : {first_outside, second_outside}) {
    if (!clause.empty()) text += "; " + clause;
  }
  std::string faults = process_faults(history, first.process, first.start_us, first.end_us);
  if (!faults.empty()) text += "; " + faults;
  return text;
}

}  // namespace

namespace {

// Whether a node reported the first holder's instance `lost` (a failover to a replica without its latest write,
// a restart without its data) after the holder's stretch began and by the time the other acquired: the overlap
// then rests on what the fault took, the theory's F5/F10, not on the lock (kTakenByAFault).
bool instance_lost_meanwhile(const History& history, const Belief& first, std::int64_t other_start_us) {
  for (const Event& event : history.events) {
    const auto* server = std::get_if<ServerEvent>(&event);
    if (server == nullptr || server->event != ServerEventKind::lost || server->key != first.key) continue;
    if (server->t < first.start_us || server->t > other_start_us) continue;
    if (!first.token.empty() && server->value.compare(0, first.token.size(), first.token) == 0) return true;
  }
  return false;
}

}  // namespace

Verdict check_mutual_exclusion_client(const History& history) {
  if (history.meta.permits > 0) return judged_by_permit_safety("mutual_exclusion_client", history);
  Verdict verdict;
  verdict.property = "mutual_exclusion_client";
  std::vector<Belief> beliefs = belief_intervals(history);
  if (beliefs.empty()) {
    verdict.outcome = Outcome::unknown;
    verdict.summary = "not exercised (no process ever held a lock)";
    return verdict;
  }
  // Sweep in start order. For each key, remember per holder (a process, or one of its threads sharing a lock
  // object) and mode the stretch reaching furthest: any other holder's stretch still running when a new one
  // starts overlaps it, unless both are reads (read-write locks: readers share, a writer excludes everyone).
  using Holder = std::tuple<std::int64_t, std::int64_t, bool>;  // (process, thread, shared)
  using Furthest = std::map<Holder, const Belief*>;
  std::map<std::string, Furthest> furthest;                                 // key -> ...
  std::int64_t violations = 0;
  for (const Belief& belief : beliefs) {
    auto& by_process = furthest[belief.key];
    for (const auto& [holder, other] : by_process) {
      const bool same_holder = std::get<0>(holder) == belief.process && std::get<1>(holder) == belief.thread;
      if (same_holder || other->end_us <= belief.start_us) continue;
      if (other->shared && belief.shared) continue;
      if (violations++ == 0) {
        verdict.witnesses = {other->start_i, belief.start_i};
        if (other->acted_i >= 0) verdict.witnesses.push_back(other->acted_i);
        verdict.cause = describe_overlap(history, *other, belief);
        // A late holder's find only when the new acquisition came after its validity ended: one that came
        // inside it overlapped a validity the lock still promised (a key that lives less than the validity).
        if (other->end_reason == "acted" && belief.start_us >= other->valid_until_us) verdict.tags.push_back(kPastOwnValidity);
        // Its validity counted from its acquire's send, at most a TTL before its stretch began.
        const std::int64_t overlap_us = std::min(other->end_us, belief.end_us) - belief.start_us;
        if (overlap_us <= slow_clock_excess_us(history, other->process, other->start_us - history.meta.ttl_ms * 1000, other->end_us)) {
          verdict.tags.push_back(kHolderClockSlow);
        }
        if (instance_lost_meanwhile(history, *other, belief.start_us)) verdict.tags.push_back(kTakenByAFault);
      }
      break;  // one violation per new stretch keeps the count meaningful
    }
    const Belief*& mine = by_process[{belief.process, belief.thread, belief.shared}];
    if (mine == nullptr || mine->end_us < belief.end_us) mine = &belief;
  }
  if (violations == 0) {
    verdict.outcome = Outcome::holds;
    verdict.summary = fmt::format("{} belief intervals, no two processes overlapping", beliefs.size());
  } else {
    verdict.outcome = Outcome::violated;
    verdict.summary = fmt::format("{} acquisition(s) overlapped another process's believed validity", violations);
  }
  return verdict;
}

}  // namespace lockcheck::properties
