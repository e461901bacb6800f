#include "quorum_available.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "history_facts.hpp"

namespace lockcheck::properties {
namespace {

using Interval = std::pair<std::int64_t, std::int64_t>;

bool overlaps(const std::vector<Interval>& intervals, std::int64_t from_us, std::int64_t to_us) {
  return std::any_of(intervals.begin(), intervals.end(),
                     [&](const Interval& i) { return i.first < to_us && from_us < i.second; });
}

struct Attempt {
  std::int64_t process = 0;
  std::int64_t invoke_i = 0;
  std::int64_t invoke_t = 0;
  std::int64_t done_i = 0;
  std::int64_t done_t = 0;
  bool ok = false;
};

}  // namespace

std::vector<UnavailableStretch> quorum_lock_unavailable(const History& history, std::int64_t bound_us) {
  std::vector<UnavailableStretch> out;
  if (history.meta.quorum <= 0 || history.meta.nodes < 2) return out;
  const std::int64_t end_us = history.end_us();
  const std::int64_t majority = history.meta.nodes / 2 + 1;
  std::vector<Interval> blocked;                                  // nobody can expect the lock then
  std::map<std::int64_t, std::vector<Interval>> process_blocked;  // nor this process
  std::vector<Attempt> attempts;
  std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> invoked;  // (process, thread) -> attempts index
  std::map<std::pair<std::int64_t, std::int64_t>, std::pair<std::int64_t, std::int64_t>> holding;  // -> (from, valid_until)
  std::set<std::int64_t> nodes_down;
  std::int64_t majority_down_since = -1, loss_since = -1;
  std::map<std::int64_t, std::int64_t> slow_since;  // node -> since: answers late enough to spend a grant's validity
  std::map<std::int64_t, std::int64_t> cut_since;  // process -> since
  for (const Event& event : history.events) {
    if (const auto* op = std::get_if<Op>(&event)) {
      const std::pair<std::int64_t, std::int64_t> id{op->process, op->thread};
      if (op->fn == OpFn::acquire && op->type == OpType::invoke) {
        attempts.push_back({op->process, op->i, op->t, -1, -1, false});
        invoked[id] = attempts.size() - 1;
      } else if (op->fn == OpFn::acquire && (op->type == OpType::ok || op->type == OpType::fail)) {
        const auto it = invoked.find(id);
        if (it != invoked.end() && !op->error) {
          Attempt& attempt = attempts[it->second];
          attempt.done_i = op->i;
          attempt.done_t = op->t;
          attempt.ok = op->type == OpType::ok;
        }
        if (it != invoked.end()) invoked.erase(it);
        if (op->type == OpType::ok) holding[id] = {op->t, op->valid_until_us.value_or(end_us)};
      } else if (op->fn == OpFn::acquire && op->type == OpType::info) {
        invoked.erase(id);
        holding[id] = {op->t, end_us};  // maybe held: nobody can expect the lock until the run tells otherwise
      } else if (op->fn == OpFn::release && op->type != OpType::invoke) {
        const auto held = holding.find(id);
        if (held != holding.end()) {
          blocked.emplace_back(held->second.first, op->t);
          holding.erase(held);
        }
      }
      continue;
    }
    const auto* fault = std::get_if<FaultEvent>(&event);
    if (fault == nullptr) continue;
    if (fault->is(sim::FaultKind::crash)) {
      for (auto it = holding.begin(); it != holding.end();) {
        if (it->first.first != fault->process) {
          ++it;
          continue;
        }
        blocked.emplace_back(it->second.first, std::max(it->second.second, fault->t));  // its keys live to their TTL
        it = holding.erase(it);
      }
    } else if (fault->is(sim::FaultKind::pause)) {
      process_blocked[fault->process].emplace_back(fault->t, fault->t + fault->duration_us);
    } else if (fault->is(sim::FaultKind::partition)) {
      cut_since.emplace(fault->process, fault->t);
    } else if (fault->is(sim::FaultKind::heal)) {
      for (const auto& [process, since] : cut_since) process_blocked[process].emplace_back(since, fault->t);
      cut_since.clear();
    } else if (fault->is(sim::FaultKind::loss)) {
      const bool lossy = fault->request_ppm > 0 || fault->reply_ppm > 0;
      if (lossy && loss_since < 0) loss_since = fault->t;
      if (!lossy && loss_since >= 0) {
        blocked.emplace_back(loss_since, fault->t);
        loss_since = -1;
      }
    } else if (fault->is(sim::FaultKind::node_crash) || fault->is(sim::FaultKind::node_restart)) {
      if (fault->is(sim::FaultKind::node_crash)) nodes_down.insert(fault->node);
      else nodes_down.erase(fault->node);
      const bool majority_down = history.meta.nodes - static_cast<std::int64_t>(nodes_down.size()) < majority;
      if (majority_down && majority_down_since < 0) majority_down_since = fault->t;
      if (!majority_down && majority_down_since >= 0) {
        blocked.emplace_back(majority_down_since, fault->t);
        majority_down_since = -1;
      }
    } else if (fault->is(sim::FaultKind::slow_node)) {
      if (!fault->is_own_kind_end()) {  // its size is its line's delay_us; zero ends the slow node
        slow_since.emplace(fault->node, fault->t);
      } else if (const auto slow = slow_since.find(fault->node); slow != slow_since.end()) {
        blocked.emplace_back(slow->second, fault->t);
        slow_since.erase(slow);
      }
    } else if ((fault->is(sim::FaultKind::node_clock_jump) && fault->delta_us < 0) ||
               (fault->is(sim::FaultKind::node_clock_drift) && fault->drift_ppm < 0) || fault->is(sim::FaultKind::failover) ||
               fault->is(sim::FaultKind::split_brain) || fault->is(sim::FaultKind::slot_migration) ||
               fault->is(sim::FaultKind::replica_partition)) {
      // A node clock stepped back or running slow keeps keys past their TTL (S7); a failover, a split or a slot
      // moving changes who serves the lock: not this clause's to judge from then on. (A clock ahead, an eviction
      // or a client's clock only make keys go sooner.)
      blocked.emplace_back(fault->t, end_us);
    }
  }
  for (const auto& [id, held] : holding) blocked.emplace_back(held.first, std::max(held.second, end_us));
  if (majority_down_since >= 0) blocked.emplace_back(majority_down_since, end_us);
  if (loss_since >= 0) blocked.emplace_back(loss_since, end_us);
  for (const auto& [node, since] : slow_since) blocked.emplace_back(since, end_us);
  for (const auto& [process, since] : cut_since) process_blocked[process].emplace_back(since, end_us);

  std::sort(attempts.begin(), attempts.end(), [](const Attempt& a, const Attempt& b) { return a.done_t < b.done_t; });
  UnavailableStretch stretch;
  bool open = false;
  auto close = [&] {
    if (open && stretch.to_us - stretch.from_us > bound_us) out.push_back(stretch);
    open = false;
  };
  for (const Attempt& attempt : attempts) {
    if (attempt.done_i < 0) continue;
    if (attempt.ok) {
      close();
      continue;
    }
    const auto own = process_blocked.find(attempt.process);
    const bool expected = !overlaps(blocked, attempt.invoke_t, attempt.done_t) &&
                          (own == process_blocked.end() || !overlaps(own->second, attempt.invoke_t, attempt.done_t));
    if (!expected) {
      close();
      continue;
    }
    if (!open) {
      stretch = UnavailableStretch{attempt.invoke_t, attempt.done_t, {attempt.invoke_i, attempt.done_i}, 0};
      open = true;
    }
    stretch.from_us = std::min(stretch.from_us, attempt.invoke_t);
    stretch.to_us = std::max(stretch.to_us, attempt.done_t);
    stretch.witnesses.back() = attempt.done_i;
    ++stretch.failed;
  }
  close();
  return out;
}

}  // namespace lockcheck::properties
