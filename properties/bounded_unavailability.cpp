// bounded_unavailability: (a) no lock key stays without expiry (F1: SETNX, then the holder dies before
// EXPIRE; a plain SET that strips the TTL), (b) after a holder crashes, the lock can be taken again
// within TTL + a bound (F20), and (c) a lock over independent masters can be taken while a majority of them is
// up and nobody holds it (quorum_available.hpp: the multi-lock that never locks with one master down). A backward node clock step or a maybe-held acquire (S2, S7) may delay
// others: within the bound that is the price of safety; past it, it is reported here, and only here.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "checkers.hpp"
#include "semaphore_history.hpp"
#include "describe.hpp"
#include "fair_waits.hpp"
#include "history_facts.hpp"
#include "quorum_available.hpp"

namespace lockcheck::properties {

namespace {

struct Finding {
  Outcome outcome = Outcome::holds;
  std::vector<std::int64_t> witnesses;
  std::string cause;
  bool late_on_node_clock = false;  // kLateOnNodeClock: a node clock held back explains the lateness
};

// How much later than its TTL in true time a key set on some node from `from_us` may have expired by `to_us`:
// the most any one node's clock was set back (node_clock_jump) or ran slow (node_clock_drift, until the node's
// next drift) in that span. S7: every lock's key outlives its TTL so.
std::int64_t node_clock_held_back_us(const History& history, std::int64_t from_us, std::int64_t to_us) {
  std::map<std::int64_t, double> held_back_us;  // node -> microseconds
  std::map<std::int64_t, std::pair<std::int64_t, std::int64_t>> drift;  // node -> (since, ppm)
  const auto add_drift = [&](std::int64_t node, std::int64_t until_us) {
    const auto it = drift.find(node);
    if (it == drift.end() || it->second.second >= 0) return;
    const std::int64_t span_us = std::min(until_us, to_us) - std::max(it->second.first, from_us);
    if (span_us > 0) held_back_us[node] += static_cast<double>(span_us) * static_cast<double>(-it->second.second) / 1e6;
  };
  for (const Event& event : history.events) {
    const auto* fault = std::get_if<FaultEvent>(&event);
    if (fault == nullptr || fault->t > to_us) continue;
    if (fault->is(sim::FaultKind::node_clock_jump) && fault->delta_us < 0 && fault->t >= from_us) {
      held_back_us[fault->node] += static_cast<double>(-fault->delta_us);
    } else if (fault->is(sim::FaultKind::node_clock_drift)) {
      add_drift(fault->node, fault->t);
      drift[fault->node] = {fault->t, fault->drift_ppm};
    }
  }
  for (const auto& [node, since] : drift) add_drift(node, to_us);
  double most_us = 0;
  for (const auto& [node, us] : held_back_us) most_us = std::max(most_us, us);
  return static_cast<std::int64_t>(most_us);
}

// (a): a lock key that exists with no deadline for longer than the bound, or still so when the run ends
// at least `bound_us` after it lost its deadline.
std::vector<Finding> keys_without_expiry(const History& history, std::int64_t bound_us) {
  struct NoDeadline {
    std::int64_t since_us = 0;
    std::int64_t since_i = 0;
    std::int64_t by = -1;
    std::string command;
  };
  std::set<std::string> keys = lock_keys(history);
  std::map<std::pair<std::int64_t, std::string>, NoDeadline> open;  // (node, key) -> since when
  std::vector<Finding> findings;
  auto judge = [&](const std::pair<std::int64_t, std::string>& id, const NoDeadline& since, std::int64_t until_us,
                   bool run_ended) {
    if (until_us - since.since_us < bound_us) {
      if (run_ended) findings.push_back({Outcome::unknown, {since.since_i}, ""});
      return;
    }
    findings.push_back(
        {Outcome::violated,
         {since.since_i},
         fmt::format("lock key '{}' on node {} had no expiry from t={} ({} by process {}) for {}{}, longer than "
                     "the bound {}",
                     id.second, id.first, format_time_us(since.since_us), since.command, since.by,
                     format_duration_us(until_us - since.since_us), run_ended ? " until the run ended" : "",
                     format_duration_us(bound_us))});
  };
  for (const Event& event : history.events) {
    const auto* server = std::get_if<ServerEvent>(&event);
    if (server == nullptr || keys.count(server->key) == 0) continue;
    // A creation the run watched for the whole bound could have shown a key left without expiry: judged.
    const bool creates = server->event == ServerEventKind::created || server->event == ServerEventKind::overwritten;
    if (creates && !server->replicated && server->t + bound_us <= history.end_us()) {
      findings.push_back({Outcome::holds, {server->i}, "creation"});
    }
    std::pair<std::int64_t, std::string> id{server->node, server->key};
    auto it = open.find(id);
    switch (server->event) {
      case ServerEventKind::created:
      case ServerEventKind::overwritten:
      case ServerEventKind::expire_removed:
        if (server->expire_at_ms < 0) {
          if (it == open.end()) open[id] = NoDeadline{server->t, server->i, server->by, server->command};
        } else if (it != open.end()) {
          judge(id, it->second, server->t, false);
          open.erase(it);
        }
        break;
      case ServerEventKind::expire_set:
      case ServerEventKind::deleted:
      case ServerEventKind::expired:
      case ServerEventKind::evicted:
      case ServerEventKind::lost:
        if (it != open.end()) {
          judge(id, it->second, server->t, false);
          open.erase(it);
        }
        break;
      case ServerEventKind::modified: break;
    }
  }
  for (const auto& [id, since] : open) judge(id, since, history.end_us(), true);
  return findings;
}

// Whether a node that clients reach held `token` as `key`'s owner at true time `t_us` (its string value, or
// one of its hash's holders), by `key_events`, the server's events for the key in history order. A creation or
// overwrite sets a node's owner, a deletion, expiry, eviction or loss clears it, and any other event keeps it (a
// hash's count changed, a TTL set) unless it lists the holders. A master failed over (and not still serving a
// cut-off side) is out of reach until it is promoted again: as a replica it expires nothing itself, so its copy
// of a dead holder's key shows no expiry, yet no client's acquire is refused by it.
bool node_held_token_at(const std::vector<const ServerEvent*>& key_events, const std::vector<const FaultEvent*>& failovers,
                        const std::string& token, std::int64_t t_us) {
  std::map<std::int64_t, KeyOwner> owners;  // node -> its owner now
  std::set<std::int64_t> fenced;            // nodes failed over and out of reach
  auto failover = failovers.begin();
  const auto fence_until = [&](std::int64_t until_us) {
    for (; failover != failovers.end() && (*failover)->t <= until_us; ++failover) {
      fenced.erase((*failover)->node);
      if (!(*failover)->from_serving) fenced.insert((*failover)->from);
    }
  };
  for (const ServerEvent* event : key_events) {
    if (event->t > t_us) break;
    fence_until(event->t);
    owners[event->node].apply(*event);
  }
  fence_until(t_us);
  return std::any_of(owners.begin(), owners.end(), [&](const auto& entry) {
    return fenced.count(entry.first) == 0 && entry.second.names(token);
  });
}

// Whether any node ever held `token` for the key: a judged client that does not report its token gets one of
// lockcheck's making, which no server event shows; its refusals are judged by themselves.
bool node_ever_held_token(const std::vector<const ServerEvent*>& key_events, const std::string& token) {
  return std::any_of(key_events.begin(), key_events.end(), [&](const ServerEvent* event) {
    return KeyOwner{event->value, event->holders.value_or(std::vector<Holder>{})}.names(token);
  });
}

// (b): for each crash of a process inside a critical section, did anyone get the lock within the bound? Taken
// again: an acquire ok, or another process writing the key at a node (the dead holder's key was gone there, even
// if that acquire then failed for a reason of its own, e.g. WAIT without a replica; not for a quorum lock, whose
// other nodes may still hold it). Evidence that it was not:
// a failed acquire that found the lock held past the bound: its "refused_at" (when its last attempt was refused;
// the fail's own time in histories without it). One that reached no node ("result":"unreachable"), that no
// attempt found held ("not_refused": a late grant, WAIT, a quorum short of replies) or that the server refused
// (an error) says nothing of the dead holder's key; nor does a refusal from before the bound, however late the
// fail line that reports it, nor one when no node held the dead holder's token any more (a live holder's lock,
// or one a restarted incarnation of the dead process took: contention, not the dead holder's lock). Histories
// whose server events never show the dead holder's token (none for the key; a judged client that does not
// report its token) are judged by the refusal alone.
// A fair lock (meta "fair") can also be held back by a process that died WAITING: its place in the queue stands
// in front of everyone until the lock lets it lapse. Such a crash is judged by a refusal past the bound made while
// no master had held the key for a whole TTL (the lock sat free, yet refused) and no fault of the network or a
// node explains it (within a TTL before: lost messages, a node fault); nobody's refusal while a live holder held
// it counts, and an acquire granted in between proves nothing (the place may stand in front later).
std::vector<Finding> dead_holders(const History& history, std::int64_t deadline_after_us) {
  std::vector<const Op*> acquires;  // acquire completions (ok/fail), in order
  std::vector<const ServerEvent*> writes;  // the key created or overwritten at a node by a client, in order
  struct Inside {
    std::int64_t count = 0;
    std::int64_t ok_i = 0;  // the outermost hold's acquire ok
    std::string token;      // and its token
  };
  std::map<std::pair<std::int64_t, std::string>, Inside> inside;  // (process, key) -> its holds
  std::map<std::string, std::vector<const ServerEvent*>> key_events;  // lock key -> its server events, in order
  std::vector<const FaultEvent*> failovers;  // in order
  const std::set<std::string> keys = lock_keys(history);
  struct Crash {
    const FaultEvent* fault;
    std::string key;
    std::int64_t ok_i;
    std::string token;
    bool waiting = false;  // died in a fair lock's queue, holding nothing
  };
  std::vector<Crash> crashes;
  std::map<std::pair<std::int64_t, std::string>, std::int64_t> waiting;  // (process, key) -> its acquire invoke
  for (const Event& event : history.events) {
    if (const auto* server = std::get_if<ServerEvent>(&event)) {
      if (keys.count(server->key) > 0) key_events[server->key].push_back(server);
      const bool written = server->event == ServerEventKind::created || server->event == ServerEventKind::overwritten;
      if (written && server->by >= 0 && !server->replicated) writes.push_back(server);
    } else if (const auto* op = std::get_if<Op>(&event)) {
      std::pair<std::int64_t, std::string> id{op->process, op->key};
      if (op->fn == OpFn::acquire && (op->type == OpType::ok || op->type == OpType::fail)) acquires.push_back(op);
      if (op->fn == OpFn::acquire && op->type == OpType::invoke) {
        waiting[id] = op->i;
      } else if (op->fn == OpFn::acquire) {
        waiting.erase(id);
      }
      if (op->fn == OpFn::acquire && op->type == OpType::ok) {
        Inside& held = inside[id];
        if (held.count++ == 0) {
          held.ok_i = op->i;
          held.token = op->token;
        }
      }
      if (op->fn == OpFn::release && op->type == OpType::invoke && inside[id].count > 0) --inside[id].count;
    } else if (const auto* fault = std::get_if<FaultEvent>(&event); fault && fault->is(sim::FaultKind::failover)) {
      failovers.push_back(fault);
    } else if (const auto* fault = std::get_if<FaultEvent>(&event); fault && fault->is(sim::FaultKind::crash)) {
      for (auto& [id, held] : inside) {
        if (id.first != fault->process || held.count == 0) continue;
        crashes.push_back({fault, id.second, held.ok_i, held.token});
        held.count = 0;
      }
      for (const auto& [id, invoke_i] : waiting) {
        const auto held = inside.find(id);
        const bool holds = held != inside.end() && held->second.count > 0;
        if (history.meta.fair && id.first == fault->process && !holds) {
          crashes.push_back({fault, id.second, invoke_i, std::string(), true});
        }
      }
      std::erase_if(waiting, [&](const auto& entry) { return entry.first.first == fault->process; });
    }
  }
  std::vector<Finding> findings;
  std::int64_t end_us = history.end_us();
  const std::vector<FreeStretch> free = history.meta.fair ? free_stretches(history) : std::vector<FreeStretch>{};
  const std::int64_t ttl_us = history.meta.ttl_ms * 1000;
  // What fairness excuses a waiter's slow turn by (fair_waits.hpp) when it is the network's or a node's fault,
  // within a TTL before the refusal: lost messages cost live waiters their places and leave the head of the
  // queue inside a command timeout, a node fault moves the queue; the free lock refused then is not the dead
  // waiter's place. (A fault of one process excuses nothing here: the dead waiter's crash is one.)
  const FaultExcuses excuses(history, ttl_us);
  const auto excused_at = [&](std::int64_t t_us) { return !excuses.of_everyone(t_us - ttl_us, t_us).empty(); };
  // Free at `t_us`, and for a whole TTL before it: longer than a fair lock that lets a dead waiter's place lapse
  // leaves it free with waiters (a waiter between a release and the head's next poll sees it free for a moment).
  const auto long_free_at = [&](const std::string& key, std::int64_t t_us) {
    return std::any_of(free.begin(), free.end(), [&](const FreeStretch& stretch) {
      return stretch.key == key && stretch.from_us <= t_us - ttl_us && t_us < stretch.until_us;
    });
  };
  for (const Crash& crash : crashes) {
    std::int64_t deadline_us = crash.fault->t + deadline_after_us;
    const Op* first_ok = nullptr;
    const Op* late_fail = nullptr;
    const auto events = key_events.find(crash.key);
    const bool server_knows_token = events != key_events.end() && node_ever_held_token(events->second, crash.token);
    // Completions are in time order: start right after the crash.
    auto after = std::upper_bound(acquires.begin(), acquires.end(), crash.fault->t,
                                  [](std::int64_t t, const Op* op) { return t < op->t; });
    if (crash.waiting) {
      // A place in a queue is no lease: someone's acquire after the crash says nothing of a place that stands in
      // front of the lock later. Only a refusal past the bound at a lock long free shows it.
      const auto late = std::find_if(after, acquires.end(), [&](const Op* op) {
        const std::int64_t refused_at_us = op->refused_at_us.value_or(op->t);
        return op->key == crash.key && op->type == OpType::fail && op->result != "unreachable" &&
               op->result != "not_refused" && !op->error && refused_at_us > deadline_us &&
               long_free_at(crash.key, refused_at_us) && !excused_at(refused_at_us);
      });
      if (late != acquires.end()) {
        late_fail = *late;
      } else {
        findings.push_back({end_us >= deadline_us ? Outcome::holds : Outcome::unknown, {crash.fault->i}, "crash"});
        continue;
      }
    }
    for (auto it = after; it != acquires.end() && !crash.waiting; ++it) {
      const Op* op = *it;
      if (op->key != crash.key) continue;
      if (op->type == OpType::ok) {
        first_ok = op;
        break;
      }
      const bool found_held = op->result != "unreachable" && op->result != "not_refused" && !op->error;
      const std::int64_t refused_at_us = op->refused_at_us.value_or(op->t);
      if (!found_held || refused_at_us <= deadline_us || late_fail != nullptr) continue;
      if (!server_knows_token || node_held_token_at(events->second, failovers, crash.token, refused_at_us)) late_fail = op;
    }
    const auto written_again = std::find_if(writes.begin(), writes.end(), [&](const ServerEvent* write) {
      return write->t > crash.fault->t && write->key == crash.key && write->by != crash.fault->process;
    });
    // A quorum lock's key written at one node may still be held at the majority: only an acquire ok says so.
    const bool retaken_at_node =
        history.meta.quorum <= 1 && written_again != writes.end() && (*written_again)->t <= deadline_us;
    if (!crash.waiting && ((first_ok != nullptr && first_ok->t <= deadline_us) || retaken_at_node)) {  // in time
      findings.push_back({Outcome::holds, {crash.fault->i}, "crash"});
      continue;
    }
    if (late_fail != nullptr) {
      const std::int64_t refused_at_us = late_fail->refused_at_us.value_or(late_fail->t);
      // One node's clock explains a single master's lock; a lock over several masters keeps or loses its
      // availability by how many of them it needs, which one node's clock does not decide.
      const bool late_on_node_clock =
          history.meta.quorum <= 1 &&
          refused_at_us - deadline_us <= node_clock_held_back_us(history, crash.fault->t - ttl_us, refused_at_us);
      findings.push_back(
          {Outcome::violated,
           {crash.ok_i, crash.fault->i, late_fail->i},
           fmt::format("process {} crashed at t={} {} '{}'; process {} still {} at t={}, "
                       "{} after the crash (TTL + bound = {})",
                       crash.fault->process, format_time_us(crash.fault->t),
                       crash.waiting ? "waiting in the queue of" : "holding", crash.key, late_fail->process,
                       crash.waiting ? "was refused the free lock" : "found it held",
                       format_time_us(late_fail->refused_at_us.value_or(late_fail->t)),
                       format_duration_us(late_fail->refused_at_us.value_or(late_fail->t) - crash.fault->t),
                       format_duration_us(deadline_after_us)),
           late_on_node_clock});
    } else if (first_ok == nullptr && end_us < deadline_us) {
      findings.push_back({Outcome::unknown, {crash.fault->i}, ""});  // the run ended too soon to tell
    }
  }
  return findings;
}

}  // namespace

std::int64_t unavailability_bound_us(std::int64_t ttl_us) { return 2 * ttl_us + 1'000'000; }

Verdict check_bounded_unavailability(const History& history) {
  if (history.meta.permits > 0) return judged_by_permit_safety("bounded_unavailability", history);
  Verdict verdict;
  verdict.property = "bounded_unavailability";
  std::int64_t ttl_us = history.meta.ttl_ms * 1'000;
  std::int64_t bound_us = unavailability_bound_us(ttl_us);
  std::vector<Finding> findings = keys_without_expiry(history, ttl_us + bound_us);
  std::vector<Finding> crashes = dead_holders(history, ttl_us + bound_us);
  findings.insert(findings.end(), crashes.begin(), crashes.end());
  // (c) A lock over independent masters that nobody held, with a majority of them up, and that nobody could take:
  // no key to wait out here, and a majority grants in one round trip, so one TTL is generous.
  for (const UnavailableStretch& stretch : quorum_lock_unavailable(history, ttl_us)) {
    findings.push_back(
        {Outcome::violated, stretch.witnesses,
         fmt::format("nobody held the lock and a majority of its {} masters were up, yet all {} acquire(s) from t={} "
                     "to t={} failed: {} without a grant, longer than the TTL ({}); a lock over independent "
                     "masters that needs more than a majority of them",
                     history.meta.nodes, stretch.failed, format_time_us(stretch.from_us), format_time_us(stretch.to_us),
                     format_duration_us(stretch.to_us - stretch.from_us), format_duration_us(ttl_us))});
  }
  auto count = [&](Outcome outcome) {
    return std::count_if(findings.begin(), findings.end(), [&](const Finding& f) { return f.outcome == outcome; });
  };
  auto violated = count(Outcome::violated);
  auto unknown = count(Outcome::unknown);
  auto judged = [&](const char* what) {
    return std::count_if(findings.begin(), findings.end(),
                         [&](const Finding& f) { return f.outcome == Outcome::holds && f.cause == what; });
  };
  auto crashes_judged = judged("crash");
  auto creations_watched = judged("creation");
  if (violated > 0) {
    const Finding& first = *std::find_if(findings.begin(), findings.end(),
                                         [](const Finding& f) { return f.outcome == Outcome::violated; });
    verdict.outcome = Outcome::violated;
    verdict.summary = fmt::format("{} lock(s) unavailable past TTL + bound ({})", violated,
                                  format_duration_us(ttl_us + bound_us));
    verdict.witnesses = first.witnesses;
    verdict.cause = first.cause;
    if (first.late_on_node_clock) verdict.tags.push_back(kLateOnNodeClock);
  } else if (crashes_judged + creations_watched > 0) {
    // Something could have shown the violation and did not; cases the run ended too soon for are named.
    verdict.outcome = Outcome::holds;
    verdict.summary = fmt::format("{} crashed holder(s) judged, {} lock key creation(s) watched for TTL + bound "
                                  "({}): every key got an expiry, every dead holder's lock came back in time{}",
                                  crashes_judged, creations_watched, format_duration_us(ttl_us + bound_us),
                                  unknown > 0 ? fmt::format(" ({} case(s) too close to the end to judge)", unknown)
                                              : std::string());
  } else if (unknown > 0) {
    verdict.outcome = Outcome::unknown;
    verdict.summary = fmt::format("{} case(s) the run ended too soon to judge (needs {} after a crash or a key "
                                  "without expiry)",
                                  unknown, format_duration_us(ttl_us + bound_us));
    verdict.witnesses = findings.front().witnesses;
  } else {
    verdict.outcome = Outcome::unknown;
    verdict.summary = fmt::format("not exercised (no holder crashed, no lock key was watched for TTL + bound, {})",
                                  format_duration_us(ttl_us + bound_us));
  }
  return verdict;
}

}  // namespace lockcheck::properties
