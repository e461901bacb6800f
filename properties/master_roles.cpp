#include "master_roles.hpp"

#include <fmt/format.h>

#include "describe.hpp"

namespace lockcheck::properties {

void MasterRoles::on_fault(const FaultEvent& fault) {
  if (fault.is(sim::FaultKind::split_brain)) cut_off_since_[fault.node] = fault.t;
  if (fault.is(sim::FaultKind::node_crash) || fault.is(sim::FaultFollowUp::rejoin)) stop(fault.node);
  if (fault.is(sim::FaultFollowUp::rejoin)) successor_.erase(fault.node);
  if (fault.is(sim::FaultKind::node_restart)) restarted(fault);
  if (!fault.is(sim::FaultKind::failover)) return;
  if (!fault.from_serving) stop(fault.from);
  promoted_[fault.node] = Promotion{fault.i, fault.t};
  successor_[fault.from] = Succession{fault.node, fault.t};
  if (fault.from_serving) {
    serving_after_[fault.from] = fault.t;
    rivals_[fault.from][fault.node] = fault.i;
    rivals_[fault.node][fault.from] = fault.i;
  }
}

void MasterRoles::restarted(const FaultEvent& fault) {
  auto succession = successor_.find(fault.node);
  if (succession == successor_.end()) return;
  // The master of its data now: its successor, or that one's successor if it failed over too. A chain of
  // failovers visits each node once at most.
  std::int64_t current = succession->second.node;
  for (std::size_t hops = 0; promoted_.count(current) == 0 && hops < successor_.size(); ++hops) {
    auto next = successor_.find(current);
    if (next == successor_.end()) return;
    current = next->second.node;
  }
  if (promoted_.count(current) == 0 || current == fault.node) return;
  serving_after_[fault.node] = succession->second.t_us;
  restarted_at_[fault.node] = fault.t;
  rivals_[fault.node][current] = fault.i;
  rivals_[current][fault.node] = fault.i;
}

void MasterRoles::stop(std::int64_t node) {
  for (const auto& [other, line] : rivals_[node]) rivals_[other].erase(node);
  rivals_.erase(node);
  promoted_.erase(node);
  serving_after_.erase(node);
  restarted_at_.erase(node);
}

std::map<std::int64_t, std::int64_t> MasterRoles::rivals(std::int64_t node) const {
  auto it = rivals_.find(node);
  return it == rivals_.end() ? std::map<std::int64_t, std::int64_t>{} : it->second;
}

std::string MasterRoles::describe(std::int64_t node) const {
  if (auto serving = serving_after_.find(node); serving != serving_after_.end()) {
    auto cut = cut_off_since_.find(node);
    auto restart = restarted_at_.find(node);
    std::string since;
    if (restart != restarted_at_.end()) {
      since = fmt::format(", restarted at t={},", format_time_us(restart->second));
    } else if (cut != cut_off_since_.end()) {
      since = fmt::format(", cut off since t={},", format_time_us(cut->second));
    }
    return fmt::format("node {}{} still believed it was the master after the failover at t={}", node, since,
                       format_time_us(serving->second));
  }
  if (auto promoted = promoted_.find(node); promoted != promoted_.end()) {
    return fmt::format("node {} was promoted at t={}", node, format_time_us(promoted->second.t_us));
  }
  return fmt::format("node {} was a master", node);
}

}  // namespace lockcheck::properties
