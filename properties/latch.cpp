// latch (count-down latches: meta "latch" = N, sim/workload/latch_workload.hpp). Per latch key, two halves, the
// verdict's clauses opened_early and never_opened (verdict.hpp):
//  (a) safety: an await returns opened only after the count reached zero: at its ok, at least N distinct
//      processes had begun a count_down of that key that is not known to have failed ("fail" means certainly
//      not recorded; a count_down in flight or with an unknown outcome may have counted, and counts here). A
//      count_down counted twice (RCountDownLatch's DECR, retried after a lost reply) or a latch that reads open
//      when it is gone (a missing key read as 0) opens it early.
//  (b) liveness: once N distinct processes' count_downs returned ok (the count reached zero at the N-th ok),
//      every await under way then or begun later returns opened within a bound (unavailability_bound_us, the one
//      bounded_unavailability grants a dead holder's lock) of the later of that instant and its own start. An
//      await that returned late, gave up after the bound, or was still waiting when the run ended past it is a
//      violation: the latch that never opens (a lost zero message, a failover that lost a count_down). The bound
//      grows by the time the awaiting process could not act or reach the server: its pauses, its partitions
//      (until a heal), a node down (until it restarts), a slow node (until the slow_node that ends it); while
//      messages are lost it stretches by 1 / (1 - q), q the chance a round trip is lost; an await whose process
//      crashed is not judged.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "checkers.hpp"
#include "clauses.hpp"
#include "describe.hpp"
#include "history_facts.hpp"

namespace lockcheck::properties {
namespace {

// The latch's two promises, as clauses of its verdict (verdict.hpp): explore looks for each.
const std::string kOpenedEarly(kLatchOpenedEarly);
const std::string kNeverOpened(kLatchNeverOpened);

struct Call {
  std::int64_t process = 0;
  std::int64_t invoke_i = -1;
  std::int64_t invoke_t = 0;
  std::optional<OpType> outcome;  // nullopt: never completed
  std::int64_t done_i = -1;
  std::int64_t done_t = 0;
  bool error = false;
};

struct LatchCalls {
  std::vector<Call> count_downs;
  std::vector<Call> awaits;
};

// Every count_down and await, per latch key, each invoke paired with its process's next completion.
std::map<std::string, LatchCalls> latch_calls(const History& history) {
  std::map<std::string, LatchCalls> out;
  std::map<std::tuple<std::int64_t, std::string, std::string>, std::size_t> open;  // (process, key, f) -> index
  for (const Event& event : history.events) {
    const auto* op = std::get_if<Op>(&event);
    if (op == nullptr || (op->f != "count_down" && op->f != "await")) continue;
    std::vector<Call>& calls = op->f == "count_down" ? out[op->key].count_downs : out[op->key].awaits;
    const auto id = std::make_tuple(op->process, op->key, op->f);
    if (op->type == OpType::invoke) {
      Call call;
      call.process = op->process;
      call.invoke_i = op->i;
      call.invoke_t = op->t;
      calls.push_back(call);
      open[id] = calls.size() - 1;
      continue;
    }
    const auto it = open.find(id);
    if (it == open.end()) {
      continue;  // a completion without its invoke (a history cut at its start): nothing to judge
    }
    Call& call = calls[it->second];
    call.outcome = op->type;
    call.done_i = op->i;
    call.done_t = op->t;
    call.error = op->error;
    open.erase(it);
  }
  return out;
}

// A stretch in which a process could not act, or reach the server.
struct Stall {
  std::int64_t from_us = 0;
  std::int64_t until_us = kForever;
};

class Stalls {
 public:
  explicit Stalls(const History& history) {
    std::map<std::int64_t, std::int64_t> node_down_since;
    std::vector<std::pair<std::int64_t, std::int64_t>> cut;  // (process, since)
    for (const Event& event : history.events) {
      const auto* fault = std::get_if<FaultEvent>(&event);
      if (fault == nullptr) continue;
      if (fault->is(sim::FaultKind::pause)) {
        per_process_[fault->process].push_back({fault->t, fault->t + fault->duration_us});
      } else if (fault->is(sim::FaultKind::crash)) {
        crashes_[fault->process].push_back(fault->t);
      } else if (fault->is(sim::FaultKind::partition)) {
        cut.emplace_back(fault->process, fault->t);
      } else if (fault->is(sim::FaultKind::heal)) {
        for (const auto& [process, since] : cut) per_process_[process].push_back({since, fault->t});
        cut.clear();
      } else if (fault->is(sim::FaultKind::node_crash)) {
        node_down_since.emplace(fault->node, fault->t);
      } else if (fault->is(sim::FaultKind::node_restart)) {
        const auto down = node_down_since.find(fault->node);
        if (down != node_down_since.end()) {
          everyone_.push_back({down->second, fault->t});
          node_down_since.erase(down);
        }
      }
    }
    // A slow node, until the slow_node that ends it, holds every poll back; a loss, until the loss that ends or
    // replaces it, loses a share of them (below).
    const std::vector<const FaultEvent*> faults = fault_lines(history);
    for (std::size_t k = 0; k < faults.size(); ++k) {
      const FaultEvent& fault = *faults[k];
      const bool slow = fault.is(sim::FaultKind::slow_node);
      if (!(slow || fault.is(sim::FaultKind::loss)) || fault.is_own_kind_end()) continue;
      const std::int64_t until_us = fault_ended_at(faults, k);
      if (slow) {
        everyone_.push_back({fault.t, until_us});
      } else {
        const double kept = (1.0 - static_cast<double>(fault.request_ppm) / 1e6) * (1.0 - static_cast<double>(fault.reply_ppm) / 1e6);
        losses_.push_back({{fault.t, until_us}, 1.0 - kept});
      }
    }
    for (const auto& [process, since] : cut) per_process_[process].push_back({since, kForever});
    for (const auto& [node, since] : node_down_since) everyone_.push_back({since, kForever});
  }

  bool crashed(std::int64_t process, std::int64_t from_us, std::int64_t to_us) const {
    const auto it = crashes_.find(process);
    if (it == crashes_.end()) return false;
    return std::any_of(it->second.begin(), it->second.end(), [&](std::int64_t t) { return t >= from_us && t <= to_us; });
  }

  // `start` + `bound`, moved on by every stall of `process` (or of everyone) that began before the deadline, and
  // stretched by 1 / (1 - q) while a loss loses a round trip with probability q: a re-polling await then needs
  // 1 / (1 - q) times the polls, and its chance to miss every one stays that of the bound without loss (Redisson's
  // latch, which waits for a message instead of polling, still misses it past the stretch).
  std::int64_t deadline(std::int64_t process, std::int64_t start_us, std::int64_t bound_us) const {
    std::int64_t stretched_us = bound_us;
    // Each pass takes in the worst loss the deadline now reaches; the deadline only grows, so at most one pass per
    // loss, and one more that changes nothing.
    double worst = 0;
    for (std::size_t pass = 0; pass <= losses_.size(); ++pass) {
      const std::int64_t until_us = stalled_deadline(process, start_us, stretched_us);
      double reached = 0;
      for (const Loss& loss : losses_) {
        if (loss.span.from_us < until_us && loss.span.until_us > start_us) reached = std::max(reached, loss.lost_share);
      }
      if (reached <= worst) return until_us;
      worst = reached;
      if (worst >= 1.0) return kForever;
      stretched_us = static_cast<std::int64_t>(static_cast<double>(bound_us) / (1.0 - worst));
    }
    return stalled_deadline(process, start_us, stretched_us);
  }

 private:
  struct Loss {
    Stall span;
    double lost_share = 0;  // the chance a round trip loses its request or its reply
  };

  std::int64_t stalled_deadline(std::int64_t process, std::int64_t start_us, std::int64_t bound_us) const {
    std::vector<Stall> stalls = everyone_;
    if (const auto it = per_process_.find(process); it != per_process_.end()) {
      stalls.insert(stalls.end(), it->second.begin(), it->second.end());
    }
    std::sort(stalls.begin(), stalls.end(), [](const Stall& a, const Stall& b) { return a.from_us < b.from_us; });
    std::int64_t deadline_us = start_us + bound_us;
    for (const Stall& stall : stalls) {
      if (stall.from_us >= deadline_us || stall.until_us <= start_us) continue;
      if (stall.until_us == kForever) return kForever;
      deadline_us += stall.until_us - std::max(stall.from_us, start_us);
    }
    return deadline_us;
  }

  std::vector<Loss> losses_;
  std::map<std::int64_t, std::vector<Stall>> per_process_;
  std::map<std::int64_t, std::vector<std::int64_t>> crashes_;
  std::vector<Stall> everyone_;
};

std::string process_list(const std::set<std::int64_t>& processes) {
  std::string out;
  for (const std::int64_t process : processes) out += fmt::format("{}{}", out.empty() ? "" : ", ", process);
  return out.empty() ? "none" : out;
}

}  // namespace

Verdict check_latch(const History& history) {
  Verdict verdict;
  verdict.property = "latch";
  if (history.meta.latch <= 0) {
    verdict.outcome = Outcome::unknown;
    verdict.summary = "not applicable: not a count-down latch's history";
    return verdict;
  }
  const std::int64_t count = history.meta.latch;
  const std::int64_t bound_us = unavailability_bound_us(history.meta.ttl_ms * 1'000);
  const std::int64_t end_us = history.end_us();
  const Stalls stalls(history);
  std::int64_t violations = 0, exercised = 0;
  // Per clause, the violation that became one first in true time (an early return, or a bound that ran out);
  // the verdict's witness is the earlier of the two.
  std::map<std::string, std::pair<std::int64_t, Verdict::ClauseViolation>> first_of;
  auto first = [&](const std::string& clause, std::int64_t at_us, std::vector<std::int64_t> witnesses, std::string cause) {
    ++violations;
    const auto known = first_of.find(clause);
    if (known != first_of.end() && at_us >= known->second.first) return;
    std::sort(witnesses.begin(), witnesses.end());
    first_of[clause] = {at_us, Verdict::ClauseViolation{clause, std::move(witnesses), std::move(cause), {}}};
  };
  for (const auto& [key, calls] : latch_calls(history)) {
    // (b)'s zero: the N-th distinct process's count_down ok.
    std::map<std::int64_t, const Call*> counted;  // process -> its first ok
    for (const Call& down : calls.count_downs) {
      if (down.outcome == OpType::ok && counted.count(down.process) == 0) counted[down.process] = &down;
    }
    std::vector<const Call*> oks;
    for (const auto& [process, down] : counted) oks.push_back(down);
    std::sort(oks.begin(), oks.end(), [](const Call* a, const Call* b) { return a->done_t < b->done_t; });
    const Call* zero = static_cast<std::int64_t>(oks.size()) >= count ? oks[static_cast<std::size_t>(count - 1)] : nullptr;

    for (const Call& await : calls.awaits) {
      if (await.error) continue;
      if (await.outcome == OpType::ok) {
        // (a): who may have counted down before it returned.
        std::set<std::int64_t> begun;
        std::vector<std::int64_t> lines{await.invoke_i, await.done_i};
        for (const Call& down : calls.count_downs) {
          if (down.invoke_t > await.done_t || down.outcome == OpType::fail) continue;
          if (begun.insert(down.process).second) lines.push_back(down.invoke_i);
        }
        ++exercised;
        if (static_cast<std::int64_t>(begun.size()) < count) {
          first(kOpenedEarly, await.done_t, std::move(lines),
                fmt::format("process {}'s await of latch '{}' returned opened at t={} when only {} of its {} "
                            "count_downs could have counted (processes {} had begun one): the latch opened early",
                            await.process, key, format_time_us(await.done_t), begun.size(), count,
                            process_list(begun)));
        }
      }
      if (zero == nullptr) continue;
      // (b): within the bound of zero (or of its own start, when later).
      const std::int64_t start_us = std::max(zero->done_t, await.invoke_t);
      const std::int64_t returned_us = await.outcome ? await.done_t : end_us;
      if (await.outcome && await.done_t < zero->done_t) continue;  // it was over before the count reached zero
      if (stalls.crashed(await.process, await.invoke_t, returned_us)) continue;
      const std::int64_t deadline_us = stalls.deadline(await.process, start_us, bound_us);
      if (await.outcome == OpType::ok && returned_us <= deadline_us) {
        ++exercised;
        continue;
      }
      if (returned_us <= deadline_us) continue;  // it gave up (or the run ended) before the bound: no judgement
      ++exercised;
      std::vector<std::int64_t> lines{zero->done_i, await.invoke_i};
      if (await.outcome) lines.push_back(await.done_i);
      const std::string how = !await.outcome ? fmt::format("was still waiting when the run ended at t={}", format_time_us(end_us))
                              : await.outcome == OpType::ok ? fmt::format("returned opened only at t={}", format_time_us(returned_us))
                                                            : fmt::format("gave up at t={}, the latch still closed for it",
                                                                          format_time_us(returned_us));
      first(kNeverOpened, deadline_us, std::move(lines),
            fmt::format("the count of latch '{}' reached zero at t={} (process {}'s count_down, the {} of {}); process "
                        "{}'s await, under way from t={}, {}: {} after it could have seen the latch open, past the "
                        "bound of {}{}", key, format_time_us(zero->done_t), zero->process, count, count, await.process,
                        format_time_us(await.invoke_t), how, format_duration_us(returned_us - start_us),
                        format_duration_us(bound_us),
                        deadline_us - start_us == bound_us
                            ? ""
                            : fmt::format(" ({} with the stalls and lost messages it met)", format_duration_us(deadline_us - start_us))));
    }
  }
  const std::pair<std::int64_t, Verdict::ClauseViolation>* earliest = nullptr;
  for (const auto& [clause, violation] : first_of) {
    verdict.clauses.push_back(violation.second);
    if (earliest == nullptr || violation.first < earliest->first) earliest = &violation;
  }
  if (earliest != nullptr) verdict = restricted_to(verdict, earliest->second.clause);
  conclude(verdict, violations, exercised,
           fmt::format("{} await(s) of a latch of {} returned early or not within the bound", violations, count),
           "no await could be judged (no latch reached zero, and none opened)",
           fmt::format("every await returned after its latch's count reached zero, and within {} of it",
                       format_duration_us(bound_us)));
  return verdict;
}

}  // namespace lockcheck::properties
