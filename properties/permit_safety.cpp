// permit_safety (semaphores: meta "permits" = N). Three parts, the verdict's clauses too_many_holders,
// permit_lost and inflated_count (verdict.hpp):
//  (a) at most N holders at once: no more than N processes (or threads sharing a lock object) inside the
//      validity they believe they hold, in true time, judged on the belief intervals mutual_exclusion_client
//      uses (a holder that used the resource after its validity believed it held a permit until then). A
//      release retried after a lost reply that returns a permit twice (RSemaphore's INCRBY) lets N + 1 in.
//  (b) no permit lost for longer than the lease after its holder died: a permit is accounted for from its
//      acquire's ok until its release's completion, and for one lease (the TTL) more after its holder crashed,
//      after an acquire or release whose outcome stayed unknown (from that line on), or after a release the
//      server refused. A refusal after a whole bound (unavailability_bound_us, the one
//      bounded_unavailability grants a dead holder's lock) in which fewer than N permits were accounted for at
//      every instant is a permit that nobody holds and nobody gets back. Failed acquires account for nothing
//      ("fail" means certainly not acquired), and a waiter's acquire counts only from its ok, or every waiter
//      would cover a leak; but where a server line shows the call's script taking a permit (a ZADD of its id, a
//      counter going down), the permit counts from that line: until the failed call returned (it gave the grant
//      back), or on into its ok. Two such calls at once, under lost replies, can keep the count short for a
//      whole bound though the server held every permit (explore's gate, seed 137).
//  (c) at the server level, for semaphores that keep a counter of free permits (Redisson's): no node counts more
//      than N free permits (a release that returned a permit twice shows there, at its INCRBY). A sorted set of
//      permit ids (`semaphore`) has no value on its server lines and is judged by (a) and (b) only.
// Resource level: N holders share the register by design, so its lost updates say nothing here.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "beliefs.hpp"
#include "checkers.hpp"
#include "clauses.hpp"
#include "describe.hpp"
#include "history_facts.hpp"

namespace lockcheck::properties {

namespace {

using HolderId = std::tuple<std::int64_t, std::int64_t, std::string>;  // (process, thread, key)

// A counter of free permits (a string holding an integer), as Redisson's semaphores keep one; nullopt for any
// other value (a sorted set's lines carry none).
std::optional<std::int64_t> counter_value(const std::string& value) {
  if (value.empty() || value.size() > 18) return std::nullopt;
  const std::size_t digits_from = value[0] == '-' ? 1 : 0;
  if (digits_from == value.size() || value.find_first_not_of("0123456789", digits_from) != std::string::npos) {
    return std::nullopt;
  }
  return std::stoll(value);
}

// A stretch in which a holder may have had a permit in the server's eyes.
struct MaybeHeld {
  HolderId holder;
  std::int64_t from_us = 0;
  std::int64_t until_us = kForever;
  std::int64_t acquired_i = -1;  // the acquire ok, when there was one
  std::int64_t doubt_i = -1;     // the line after which the permit was only in doubt (crash, unknown outcome)
  std::int64_t doubt_us = -1;
  std::string doubt;             // what put it in doubt, in words; empty: it ended with a known outcome
  bool acquiring = false;           // its acquire has not returned yet
  bool releasing = false;           // its release is in flight
  std::int64_t granted_us = -1;     // when a server line showed its acquire's script taking a permit
  std::int64_t given_back_us = -1;  // when a server line showed its release's script giving it back
};

// What a server line shows a script doing to a semaphore's permits: taking one (a counter of free permits
// going down, or a write that does not only remove: a ZADD of a permit id), giving one back (the counter going
// up, or a removal: a ZREM), or neither (the first count a counter shows).
enum class PermitChange { taken, given_back, none };

PermitChange permit_change(const ServerEvent& event, std::optional<std::int64_t> counter_before) {
  if (const std::optional<std::int64_t> counter = counter_value(event.value)) {
    if (!counter_before.has_value() || *counter == *counter_before) return PermitChange::none;
    return *counter < *counter_before ? PermitChange::taken : PermitChange::given_back;
  }
  const std::string command = upper_command(event.command);
  static const std::set<std::string, std::less<>> kOnlyRemove{
      "ZREM", "ZREMRANGEBYSCORE", "ZREMRANGEBYRANK", "ZREMRANGEBYLEX", "ZPOPMIN", "ZPOPMAX", "DEL", "UNLINK",
      "HDEL", "SREM", "SPOP", "LREM", "LPOP", "RPOP", "INCR", "INCRBY", "INCRBYFLOAT"};
  return kOnlyRemove.count(command) == 0 ? PermitChange::taken : PermitChange::given_back;
}

std::string holder_words(const HolderId& holder) {
  const auto& [process, thread, key] = holder;
  return thread == 0 ? fmt::format("process {}", process) : fmt::format("process {} thread {}", process, thread);
}

class MaybeHeldTracker {
 public:
  // `lease_us`: how long a permit stays in doubt after its holder died or an outcome stayed unknown.
  explicit MaybeHeldTracker(std::int64_t lease_us) : lease_us_(lease_us) {}

  void on_op(const Op& op) {
    if (op.fn != OpFn::acquire && op.fn != OpFn::release) return;
    const HolderId id{op.process, op.thread, op.key};
    if (op.fn == OpFn::acquire && op.type == OpType::invoke) {
      MaybeHeld started;
      started.holder = id;
      started.from_us = op.t;
      started.acquiring = true;
      open_[id] = std::move(started);
      return;
    }
    auto it = open_.find(id);
    if (it == open_.end()) return;
    MaybeHeld& held = it->second;
    if (op.fn == OpFn::release && op.type == OpType::invoke) {
      held.releasing = true;
      return;
    }
    // From its ok or its unknown outcome, or from the grant a server line showed before that.
    const std::int64_t held_from_us = held.granted_us >= 0 ? std::min(held.granted_us, op.t) : op.t;
    if (op.fn == OpFn::acquire) held.acquiring = false;
    if (op.fn == OpFn::acquire && op.type == OpType::ok) {
      held.acquired_i = op.i;
      held.from_us = held_from_us;
    } else if (op.fn == OpFn::acquire && op.type == OpType::fail) {
      // Not acquired: it accounts for no permit, but for the one its script was granted until it gave it back.
      if (held.granted_us < 0) {
        open_.erase(it);
      } else {
        held.from_us = held_from_us;
        close(it, op.t);
      }
    } else if (op.type == OpType::info || (op.fn == OpFn::release && op.type == OpType::fail)) {
      if (op.fn == OpFn::acquire) held.from_us = held_from_us;
      doubt(it, op.t, op.i, op.fn == OpFn::acquire ? "its acquire's outcome stayed unknown"
                                                  : "its release's outcome stayed unknown");
    } else if (op.fn == OpFn::release && op.type == OpType::ok) {
      // Until the give-back a server line showed, if one did: the server's times on both ends, so a permit
      // handed over between a release's INCRBY and its reply is not counted twice.
      close(it, held.given_back_us >= 0 ? std::min(held.given_back_us, op.t) : op.t);
    }
  }

  // A server line written by a process's script while its acquire or release of that key is in flight (the
  // node's own writes, a replica's copies and a process's other calls aside): a permit taken counts from then,
  // one given back until then.
  void on_server(const ServerEvent& event) {
    const bool written = event.event == ServerEventKind::created || event.event == ServerEventKind::modified;
    std::optional<std::int64_t>& counter = counters_[{event.node, event.key}];
    const std::optional<std::int64_t> counter_before = counter;
    if (written) counter = counter_value(event.value);
    if (!written || event.by < 0 || event.replicated) return;
    const PermitChange change = permit_change(event, counter_before);
    for (auto& [id, held] : open_) {
      const auto& [process, thread, key] = id;
      if (process != event.by || key != event.key) continue;
      if (change == PermitChange::taken && held.acquiring && held.granted_us < 0) held.granted_us = event.ran_from_us();
      if (change == PermitChange::given_back && held.releasing && held.given_back_us < 0) {
        held.given_back_us = event.ran_from_us();
      }
    }
  }

  void on_crash(const FaultEvent& crash) {
    for (auto it = open_.begin(); it != open_.end();) {
      auto next = std::next(it);
      if (std::get<0>(it->first) == crash.process) doubt(it, crash.t, crash.i, "it crashed");
      it = next;
    }
  }

  std::vector<MaybeHeld> finish() {
    for (auto& [id, held] : open_) done_.push_back(held);  // still held at the end
    open_.clear();
    return std::move(done_);
  }

 private:
  void close(std::map<HolderId, MaybeHeld>::iterator it, std::int64_t t_us) {
    it->second.until_us = t_us;
    done_.push_back(it->second);
    open_.erase(it);
  }
  void doubt(std::map<HolderId, MaybeHeld>::iterator it, std::int64_t t_us, std::int64_t i, std::string why) {
    it->second.doubt_i = i;
    it->second.doubt_us = t_us;
    it->second.doubt = std::move(why);
    close(it, t_us + lease_us_);
  }

  std::int64_t lease_us_;
  std::map<std::pair<std::int64_t, std::string>, std::optional<std::int64_t>> counters_;  // (node, key) -> free
  std::map<HolderId, MaybeHeld> open_;
  std::vector<MaybeHeld> done_;
};

struct Finding {
  std::vector<std::int64_t> witnesses;
  std::string cause;
  std::vector<std::string> tags;  // kPastOwnValidity: one of the holders acted after its own validity
};

// (a): more than `permits` believed holders at once.
std::int64_t too_many_holders(const History& history, std::int64_t permits, std::int64_t& beliefs_seen,
                              std::vector<Finding>& first) {
  const std::vector<Belief> beliefs = belief_intervals(history);  // in start order
  beliefs_seen = static_cast<std::int64_t>(beliefs.size());
  std::int64_t violations = 0;
  for (std::size_t k = 0; k < beliefs.size(); ++k) {
    const Belief& belief = beliefs[k];
    std::vector<const Belief*> inside;
    for (std::size_t j = 0; j < k; ++j) {
      const Belief& other = beliefs[j];
      const bool same_holder = other.process == belief.process && other.thread == belief.thread;
      if (!same_holder && other.key == belief.key && other.end_us > belief.start_us) inside.push_back(&other);
    }
    if (static_cast<std::int64_t>(inside.size()) < permits) continue;
    if (violations++ > 0) continue;
    Finding finding;
    std::string others;
    for (const Belief* other : inside) {
      finding.witnesses.push_back(other->start_i);
      others += fmt::format("{}{} (token {}) from t={} until t={}", others.empty() ? "" : ", ", holder_name(*other),
                            short_token(other->token), format_time_us(other->start_us), format_time_us(other->end_us));
    }
    finding.witnesses.push_back(belief.start_i);
    // A late holder's find only when the newcomer came after that holder's validity ended (as
    // mutual_exclusion_client says it).
    for (const Belief* other : inside) {
      if (other->end_reason == "acted" && belief.start_us >= other->valid_until_us) finding.tags.push_back(kPastOwnValidity);
    }
    finding.cause = fmt::format("{} holders of '{}' at once, a semaphore of {} permit(s): {} believed they held a "
                                "permit, and {} acquired one (token {}) at t={}",
                                inside.size() + 1, belief.key, permits, others, holder_name(belief),
                                short_token(belief.token), format_time_us(belief.start_us));
    // What happened to the newcomer while the others held (a clock that jumped ahead, a pause).
    const std::int64_t others_from_us = inside.front()->start_us;
    if (const std::string faults = process_faults(history, belief.process, others_from_us, belief.end_us);
        !faults.empty()) {
      finding.cause += "; " + faults;
    }
    first.push_back(std::move(finding));
  }
  return violations;
}

// How many permits the stretches account for at each instant: a step function, with a window's maximum.
class HeldCount {
 public:
  explicit HeldCount(const std::vector<MaybeHeld>& held) {
    for (const MaybeHeld& each : held) {
      steps_.push_back({each.from_us, +1});
      steps_.push_back({each.until_us, -1});
    }
    // Ends before starts at one instant: a permit handed on at once is not two at once.
    std::sort(steps_.begin(), steps_.end());
    prefix_.push_back(0);
    for (const auto& [t, delta] : steps_) prefix_.push_back(prefix_.back() + delta);
  }
  // The most permits accounted for at any instant of [from_us, to_us].
  std::int64_t max_within(std::int64_t from_us, std::int64_t to_us) const {
    const auto first = after(from_us), last = after(to_us);
    return *std::max_element(prefix_.begin() + first, prefix_.begin() + last + 1);
  }

 private:
  // How many steps lie at or before t_us.
  std::size_t after(std::int64_t t_us) const {
    const auto it = std::upper_bound(steps_.begin(), steps_.end(), std::pair{t_us, std::int64_t{2}});
    return static_cast<std::size_t>(it - steps_.begin());
  }
  std::vector<std::pair<std::int64_t, std::int64_t>> steps_;  // (time, +1 | -1)
  std::vector<std::int64_t> prefix_;                          // prefix_[k]: the count after k steps
};

// (b): a refusal after a whole bound in which fewer than `permits` permits were held or in doubt.
std::int64_t lost_permits(const History& history, std::int64_t permits, std::int64_t& refusals_seen,
                          std::vector<Finding>& first) {
  const std::int64_t ttl_us = history.meta.ttl_ms * 1000;
  const std::int64_t bound_us = unavailability_bound_us(ttl_us);
  MaybeHeldTracker tracker(ttl_us);
  std::vector<const Op*> refusals;
  for (const Event& event : history.events) {
    if (const auto* op = std::get_if<Op>(&event)) {
      tracker.on_op(*op);
      const bool refused = op->fn == OpFn::acquire && op->type == OpType::fail && !op->error &&
                           op->result != "unreachable" && op->result != "not_refused";
      // Judged on the whole bound before it: a refusal in the run's first bound has none (its window would
      // reach back before the run began, when nobody could have held a permit).
      if (refused && op->refused_at_us.value_or(op->t) >= bound_us) refusals.push_back(op);
    }
    if (const auto* fault = std::get_if<FaultEvent>(&event); fault != nullptr && fault->is(sim::FaultKind::crash)) {
      tracker.on_crash(*fault);
    }
    if (const auto* server = std::get_if<ServerEvent>(&event)) tracker.on_server(*server);
  }
  std::map<std::string, std::vector<MaybeHeld>> by_key;
  for (MaybeHeld& each : tracker.finish()) by_key[std::get<2>(each.holder)].push_back(std::move(each));
  std::map<std::string, HeldCount> counts;
  for (const auto& [key, held] : by_key) counts.emplace(key, HeldCount(held));
  refusals_seen = static_cast<std::int64_t>(refusals.size());
  std::int64_t violations = 0;
  for (const Op* refusal : refusals) {
    const std::int64_t at_us = refusal->refused_at_us.value_or(refusal->t);
    const auto count = counts.find(refusal->key);
    const std::int64_t most = count == counts.end() ? 0 : count->second.max_within(at_us - bound_us, at_us);
    if (most >= permits) continue;
    if (violations++ > 0) continue;
    const std::vector<MaybeHeld> none;
    const std::vector<MaybeHeld>& held = count == counts.end() ? none : by_key.at(refusal->key);
    std::string who;
    const MaybeHeld* gone = nullptr;  // the earliest permit in doubt whose lease ran out before the window
    for (const MaybeHeld& each : held) {
      if (each.from_us <= at_us && at_us < each.until_us) who += (who.empty() ? "" : ", ") + holder_words(each.holder);
      const bool lapsed = !each.doubt.empty() && each.until_us <= at_us - bound_us && each.acquired_i >= 0;
      if (lapsed && (gone == nullptr || each.doubt_us < gone->doubt_us)) gone = &each;
    }
    Finding finding;
    finding.cause = fmt::format("{} was refused '{}' at t={}, and for the {} before it at most {} of the semaphore's "
                                "{} permit(s) were held or in doubt{}",
                                holder_words({refusal->process, refusal->thread, refusal->key}), refusal->key,
                                format_time_us(at_us), format_duration_us(bound_us), most, permits,
                                who.empty() ? "" : " (at the refusal: " + who + ")");
    if (gone != nullptr) {
      finding.witnesses = {gone->acquired_i, gone->doubt_i};
      finding.cause += fmt::format("; {} acquired a permit and {} at t={}, and the permit was not back within the "
                                   "lease ({}) and the bound ({}) after that",
                                   holder_words(gone->holder), gone->doubt, format_time_us(gone->doubt_us),
                                   format_duration_us(ttl_us), format_duration_us(bound_us));
    } else {
      finding.cause += "; a permit was lost while its holder was alive (a retried or abandoned command took it)";
    }
    finding.witnesses.push_back(refusal->i);
    first.push_back(std::move(finding));
  }
  return violations;
}


// (c), at the server level: a counter of free permits above N. Only a release that returned a permit twice (or
// a reclaim of one still counted free) raises it past the semaphore's size.
std::int64_t inflated_counters(const History& history, std::int64_t permits, std::int64_t& counted,
                               std::vector<Finding>& first) {
  const std::set<std::string> keys = lock_keys(history);
  InFlight in_flight;
  std::int64_t violations = 0;
  for (const Event& event : history.events) {
    if (const auto* op = std::get_if<Op>(&event)) in_flight.observe(*op);
    const auto* server = std::get_if<ServerEvent>(&event);
    if (server == nullptr || server->replicated || keys.count(server->key) == 0) continue;
    const std::optional<std::int64_t> free = counter_value(server->value);
    if (!free) continue;
    ++counted;
    if (*free <= permits || violations++ > 0) continue;
    Finding finding;
    finding.witnesses = {server->i};
    finding.cause = fmt::format("node {} counted {} free permits of '{}' after {} at t={}, a semaphore of {}: a "
                                "permit returned twice",
                                server->node, *free, server->key,
                                server->by >= 0 ? in_flight.describe(server->by, server->command, server->script,
                                                                     "release")
                                                : "a change by no client",
                                format_time_us(server->t), permits);
    first.push_back(std::move(finding));
  }
  return violations;
}

}  // namespace

Verdict check_permit_safety(const History& history) {
  Verdict verdict;
  verdict.property = "permit_safety";
  const std::int64_t permits = history.meta.permits;
  if (permits <= 0) {
    verdict.outcome = Outcome::unknown;
    verdict.summary = "not exercised (not a semaphore: the history's meta gives no permits)";
    return verdict;
  }
  std::vector<Finding> crowded, inflated, lost;
  std::int64_t beliefs = 0, refusals = 0, counters = 0;
  const std::int64_t too_many = too_many_holders(history, permits, beliefs, crowded);
  const std::int64_t over = inflated_counters(history, permits, counters, inflated);
  const std::int64_t leaked = lost_permits(history, permits, refusals, lost);
  // Each part a clause of the verdict (verdict.hpp), so that explore looks for a lost permit past a crowd. The
  // verdict's own witness: too many holders first (an extra holder costs safety), then the server's count that
  // lets one in, then a lost permit (which only costs waiting).
  const std::pair<std::string_view, const std::vector<Finding>*> parts[] = {
      {kTooManyHolders, &crowded}, {kInflatedCount, &inflated}, {kPermitLost, &lost}};
  for (const auto& [clause, findings] : parts) {
    if (findings->empty()) continue;
    const Finding& finding = findings->front();
    std::vector<std::string> tags;
    if (!finding.tags.empty()) tags.push_back(finding.tags.front());
    verdict.clauses.push_back(Verdict::ClauseViolation{std::string(clause), finding.witnesses, finding.cause, std::move(tags)});
  }
  if (!verdict.clauses.empty()) verdict = restricted_to(verdict, verdict.clauses.front().clause);
  std::string violated;
  if (too_many > 0) violated = fmt::format("{} acquisition(s) made more than {} holders at once", too_many, permits);
  if (over > 0) {
    violated += fmt::format("{}{} server count(s) of more than {} free permits", violated.empty() ? "" : "; ", over,
                            permits);
  }
  if (leaked > 0) {
    violated += fmt::format("{}{} refusal(s) while a permit was lost", violated.empty() ? "" : "; ", leaked);
  }
  conclude(verdict, too_many + over + leaked, beliefs + refusals + counters, violated, "not exercised (no process ever held a permit)",
           fmt::format("{} holds, never more than {} at once; {} refusal(s), each with every permit held or in "
                       "doubt", beliefs, permits, refusals));
  return verdict;
}

}  // namespace lockcheck::properties
