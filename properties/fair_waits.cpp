#include "fair_waits.hpp"

#include <fmt/format.h>

#include <map>
#include <set>
#include <tuple>

#include "describe.hpp"

namespace lockcheck::properties {

std::vector<Wait> waits_of(const History& history) {
  std::vector<Wait> waits;
  using Holder = std::tuple<std::int64_t, std::int64_t, std::string>;  // (process, thread, key)
  std::map<Holder, std::size_t> open;         // -> its wait in `waits`
  std::map<Holder, std::int64_t> holds;       // -> holds not yet released
  std::map<std::int64_t, std::set<std::int64_t>> busy;  // process -> threads acquiring or holding
  const auto close = [&](std::map<Holder, std::size_t>::iterator it, std::int64_t t, std::int64_t i, Wait::End end) {
    Wait& wait = waits[it->second];
    wait.until_us = t;
    wait.until_i = i;
    wait.end = end;
    open.erase(it);
  };
  for (const Event& event : history.events) {
    if (const auto* fault = std::get_if<FaultEvent>(&event); fault != nullptr && fault->is(sim::FaultKind::crash)) {
      for (auto it = open.begin(); it != open.end();) {
        const auto next = std::next(it);
        if (std::get<0>(it->first) == fault->process) close(it, fault->t, fault->i, Wait::End::crashed);
        it = next;
      }
      std::erase_if(holds, [&](const auto& entry) { return std::get<0>(entry.first) == fault->process; });
      busy.erase(fault->process);
      continue;
    }
    const auto* op = std::get_if<Op>(&event);
    if (op == nullptr) continue;
    const Holder id{op->process, op->thread, op->key};
    if (op->fn == OpFn::release && op->type == OpType::invoke) {
      if (auto held = holds.find(id); held != holds.end() && --held->second <= 0) {
        holds.erase(held);
        busy[op->process].erase(op->thread);
      }
      continue;
    }
    if (op->fn != OpFn::acquire) continue;
    if (op->type == OpType::invoke) {
      Wait wait;
      wait.process = op->process;
      wait.thread = op->thread;
      wait.key = op->key;
      wait.from_us = op->t;
      wait.from_i = op->i;
      wait.reentry = holds.count(id) > 0;
      std::set<std::int64_t>& threads = busy[op->process];
      wait.straight_to_redis = threads.empty() || (threads.size() == 1 && threads.count(op->thread) == 1);
      threads.insert(op->thread);
      open[id] = waits.size();
      waits.push_back(std::move(wait));
      continue;
    }
    auto it = open.find(id);
    if (it == open.end()) continue;
    if (op->type == OpType::ok) {
      ++holds[id];
      close(it, op->t, op->i, Wait::End::granted);
    } else if (op->type == OpType::fail) {
      if (holds.count(id) == 0) busy[op->process].erase(op->thread);
      close(it, op->refused_at_us.value_or(op->t), op->i, Wait::End::gave_up);
    } else {
      close(it, op->t, op->i, Wait::End::unknown);
    }
  }
  return waits;
}

std::vector<FreeStretch> free_stretches(const History& history) {
  const std::set<std::string> keys = lock_keys(history);
  std::map<std::string, std::set<std::int64_t>> holding;  // key -> nodes whose latest own line shows it present
  std::map<std::string, std::size_t> open;                // key -> its free stretch now, in `out`
  std::vector<FreeStretch> out;
  for (const std::string& key : keys) {
    open[key] = out.size();
    out.push_back(FreeStretch{key, 0, 0, kForever});
  }
  // Replicas write no key lines of their own: a promoted one holds what its old master held, unless the history
  // reports the old master's copy `lost` at the failover itself (the promoted node lacked it). Without this a
  // replica-to-be's loss at a later restart freed the lock on paper (the gate at 1000 runs, seed 135).
  std::map<std::int64_t, std::pair<std::int64_t, std::int64_t>> promoted_from;  // old master -> (promoted, at)
  // A node back from its AOF may still hold the key its `lost` line reports (the gate at 1000 runs, seed 801).
  AofRestarts aof_restarts;
  for (const Event& event : history.events) {
    if (const auto* fault = std::get_if<FaultEvent>(&event); fault != nullptr && aof_restarts.on_fault(*fault)) continue;
    if (const auto* fault = std::get_if<FaultEvent>(&event); fault != nullptr && fault->is(sim::FaultKind::failover)) {
      promoted_from[fault->from] = {fault->node, fault->t};
      for (auto& [key, nodes] : holding) {
        if (nodes.count(fault->from) > 0) nodes.insert(fault->node);
      }
      continue;
    }
    const auto* server = std::get_if<ServerEvent>(&event);
    if (server == nullptr || server->replicated || keys.count(server->key) == 0) continue;
    std::set<std::int64_t>& nodes = holding[server->key];
    const bool was_held = !nodes.empty();
    switch (server->event) {
      case ServerEventKind::created:
      case ServerEventKind::overwritten:
      case ServerEventKind::modified:
      case ServerEventKind::expire_set:
      case ServerEventKind::expire_removed: nodes.insert(server->node); break;
      case ServerEventKind::deleted:
      case ServerEventKind::expired:
      case ServerEventKind::evicted:
      case ServerEventKind::lost: {
        if (!aof_restarts.lost_at_a_restart(*server)) nodes.erase(server->node);
        const auto failover = promoted_from.find(server->node);
        const bool at_the_failover = failover != promoted_from.end() && failover->second.second == server->t;
        if (server->event == ServerEventKind::lost && at_the_failover) nodes.erase(failover->second.first);
        break;
      }
    }
    if (!was_held && !nodes.empty()) {
      out[open.at(server->key)].until_us = server->t;
      open.erase(server->key);
    } else if (was_held && nodes.empty()) {
      open[server->key] = out.size();
      out.push_back(FreeStretch{server->key, server->t, server->i, kForever});
    }
  }
  return out;
}

FaultExcuses::FaultExcuses(const History& history, std::int64_t settle_us) : settle_us_(settle_us) {
  if (history.meta.lossy_links) {
    windows_.push_back({-1, 0, kForever, "the links dropped messages all run ([link] loss)"});
  }
  const std::vector<const FaultEvent*> faults = fault_lines(history);
  for (std::size_t k = 0; k < faults.size(); ++k) {
    const FaultEvent& fault = *faults[k];
    const std::string when = format_time_us(fault.t);
    if (fault.is(sim::FaultFollowUp::sentinel_failover)) {
      windows_.push_back({-1, fault.t, fault.t, fmt::format("a failover at t={}", when)});
    }
    if (!fault.kind) continue;
    // The kind's row says for how long, whose and in which words; a loss or slow node set back to nothing
    // (the end of one) excuses nothing itself.
    const sim::WaitExcuse& excuse = sim::fault_row(*fault.kind).excuse;
    if (excuse.span == sim::ExcuseSpan::never || fault.is_own_kind_end()) continue;
    std::int64_t until_us = fault.t;
    switch (excuse.span) {
      case sim::ExcuseSpan::never:
      case sim::ExcuseSpan::instant: break;
      case sim::ExcuseSpan::for_duration: until_us = fault.t + fault.duration_us; break;
      case sim::ExcuseSpan::until_ended: until_us = fault_ended_at(faults, k); break;
      case sim::ExcuseSpan::for_delta_back: until_us = fault.t + std::max<std::int64_t>(0, -fault.delta_us); break;
    }
    windows_.push_back({excuse.of_process ? fault.process : -1, fault.t, until_us,
                        fmt::format(fmt::runtime(excuse.words), fmt::arg("process", fault.process),
                                    fmt::arg("node", fault.node), fmt::arg("when", when),
                                    fmt::arg("duration", format_duration_us(fault.duration_us)),
                                    fmt::arg("name", fault.name()))});
  }
}

std::string FaultExcuses::of(std::int64_t process, std::int64_t from_us, std::int64_t to_us) const {
  for (const Window& window : windows_) {
    if (window.process >= 0 && window.process != process) continue;
    const std::int64_t until = window.until_us == kForever ? kForever : window.until_us + settle_us_;
    if (window.from_us <= to_us && until >= from_us) return window.words;
  }
  return std::string();
}

std::string FaultExcuses::of_everyone(std::int64_t from_us, std::int64_t to_us) const {
  return of(-1, from_us, to_us);
}

}  // namespace lockcheck::properties
