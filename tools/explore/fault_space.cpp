#include "fault_space.hpp"

#include <algorithm>

#include "lockcheck/variants/registry.hpp"

namespace lockcheck::explore {
namespace {

using sim::FaultKind;
using sim::FaultSpec;

std::int64_t ttl_us(const sim::RunConfig& config) { return config.lock.ttl.count() * 1000; }

// A duration in [low_permille, high_permille] thousandths of the TTL, at least 1 ms.
std::int64_t of_ttl(const sim::RunConfig& config, sim::Prng& prng, std::int64_t low_permille, std::int64_t high_permille) {
  return std::max<std::int64_t>(1000, ttl_us(config) * prng.between(low_permille, high_permille) / 1000);
}

std::vector<int> replicas_of(const sim::RunConfig& config) {
  std::vector<int> out;
  for (std::size_t i = 0; i < config.nodes.size(); ++i) {
    if (config.nodes[i].replica_of >= 0) out.push_back(static_cast<int>(i));
  }
  return out;
}

int pick(const std::vector<int>& from, sim::Prng& prng) { return from[prng.below(from.size())]; }

}  // namespace

bool drawn_on_its_own(FaultKind kind) { return !sim::fault_row(kind).follow_up; }

std::vector<FaultKind> applicable_kinds(const sim::RunConfig& config) {
  std::vector<FaultKind> out;
  for (const FaultKind kind : sim::kFaultKinds) {
    if (drawn_on_its_own(kind) && sim::topology_has(sim::fault_row(kind).needs, config)) out.push_back(kind);
  }
  return out;
}

std::vector<FaultKind> searched_kinds(const sim::RunConfig& config, const std::vector<FaultKind>& without) {
  std::vector<FaultKind> kinds = applicable_kinds(config);
  std::erase_if(kinds, [&](FaultKind kind) { return std::find(without.begin(), without.end(), kind) != without.end(); });
  return kinds;
}

void leave_out(const std::vector<FaultKind>& without, std::vector<FaultSpec>& faults) {
  const auto left_out = [&](FaultKind kind) { return std::find(without.begin(), without.end(), kind) != without.end(); };
  // A follow-up goes with the faults it ends (a crash's restart, a node crash's node restart); a heal, which
  // ends every cut at once, stays while any kind it ends is searched.
  const auto ends_only_left_out = [&](FaultKind follow_up) {
    bool ends_any = false;
    for (const FaultKind kind : sim::kFaultKinds) {
      if (kind == follow_up || sim::fault_row(kind).ended_by != follow_up) continue;
      ends_any = true;
      if (!left_out(kind)) return false;
    }
    return ends_any;
  };
  std::erase_if(faults, [&](const FaultSpec& fault) {
    return left_out(fault.kind) || (sim::fault_row(fault.kind).follow_up && ends_only_left_out(fault.kind));
  });
}

std::vector<FaultKind> swarm_subset(const std::vector<FaultKind>& kinds, sim::Prng& prng) {
  std::vector<FaultKind> out;
  for (const FaultKind kind : kinds) {
    if (prng.below(2) == 0) out.push_back(kind);
  }
  if (out.empty() && !kinds.empty()) out.push_back(kinds[prng.below(kinds.size())]);
  return out;
}

void draw_fault(FaultKind kind, const sim::RunConfig& config, sim::Prng& prng, std::vector<FaultSpec>& out) {
  const std::int64_t end = config.duration_us;
  const auto clients = static_cast<std::uint64_t>(config.clients.size());
  const std::vector<int> masters = sim::master_nodes(config);
  const std::vector<int> replicas = replicas_of(config);
  FaultSpec fault{.at_us = prng.between(0, end * 4 / 5), .kind = kind};
  const auto ended_by = [&](FaultSpec ending, std::int64_t after_us) {
    ending.at_us = std::min(end, fault.at_us + after_us);
    out.push_back(fault);
    out.push_back(ending);
  };
  switch (kind) {
    case FaultKind::pause:
      fault.process = static_cast<int>(prng.below(clients));
      fault.duration_us = of_ttl(config, prng, 300, 3000);
      break;
    case FaultKind::crash:
      fault.process = static_cast<int>(prng.below(clients));
      return ended_by(FaultSpec{.kind = FaultKind::restart, .process = fault.process}, of_ttl(config, prng, 100, 2000));
    case FaultKind::client_clock_jump:
      fault.process = static_cast<int>(prng.below(clients));
      fault.delta_us = of_ttl(config, prng, 200, 3000) * (prng.below(2) == 0 ? 1 : -1);
      break;
    case FaultKind::client_clock_drift:
      fault.process = static_cast<int>(prng.below(clients));
      fault.drift_ppm = prng.between(1000, 300000) * (prng.below(2) == 0 ? 1 : -1);
      break;
    case FaultKind::node_clock_jump:
      fault.node = static_cast<int>(prng.below(config.nodes.size()));
      fault.delta_us = of_ttl(config, prng, 200, 3000) * (prng.below(2) == 0 ? 1 : -1);
      break;
    case FaultKind::node_clock_drift:
      fault.node = static_cast<int>(prng.below(config.nodes.size()));
      fault.drift_ppm = prng.between(1000, 300000) * (prng.below(2) == 0 ? 1 : -1);
      break;
    case FaultKind::node_crash: {
      fault.node = static_cast<int>(prng.below(config.nodes.size()));
      FaultSpec restart{.kind = FaultKind::node_restart, .node = fault.node};
      restart.mode = static_cast<sim::RestartMode>(prng.below(3));
      return ended_by(restart, of_ttl(config, prng, 50, 2000));
    }
    case FaultKind::failover: fault.node = pick(replicas, prng); break;
    case FaultKind::partition:
      fault.process = static_cast<int>(prng.below(clients));
      fault.node = pick(masters, prng);
      return ended_by(FaultSpec{.kind = FaultKind::heal}, of_ttl(config, prng, 200, 3000));
    case FaultKind::loss:
      fault.request_loss_ppm = static_cast<std::uint32_t>(prng.between(0, 300000));
      fault.reply_loss_ppm = static_cast<std::uint32_t>(prng.between(0, 300000));
      return ended_by(FaultSpec{.kind = FaultKind::loss, .request_loss_ppm = config.link.request_loss_ppm,
                                .reply_loss_ppm = config.link.reply_loss_ppm},
                      of_ttl(config, prng, 500, 5000));
    case FaultKind::slow_node:
      // Slower than the client's command timeout, a node is unreachable (a partition, drawn as such) and
      // requests overtake one another; a slow node here answers late but within the timeout.
      fault.node = static_cast<int>(prng.below(config.nodes.size()));
      fault.duration_us = std::min(of_ttl(config, prng, 50, 1000), config.command_timeout_us * 8 / 10);
      return ended_by(FaultSpec{.kind = FaultKind::slow_node, .node = fault.node, .duration_us = 0}, of_ttl(config, prng, 500, 4000));
    case FaultKind::evict:
      fault.node = pick(masters, prng);
      fault.evict_target = prng.below(2) == 0 ? sim::EvictTarget::lock : sim::EvictTarget::any;
      break;
    case FaultKind::replica_partition:
      fault.node = pick(replicas, prng);
      return ended_by(FaultSpec{.kind = FaultKind::heal}, of_ttl(config, prng, 200, 3000));
    case FaultKind::slot_migration:
      fault.node = pick(masters, prng);
      fault.duration_us = of_ttl(config, prng, 100, 2000);
      break;
    case FaultKind::split_brain:
      fault.node = config.sentinel.sentinels > 0 ? 0 : pick(masters, prng);
      fault.process = static_cast<int>(prng.below(clients));
      return ended_by(FaultSpec{.kind = FaultKind::heal}, of_ttl(config, prng, 1000, 5000));
    case FaultKind::restart:
    case FaultKind::node_restart:
    case FaultKind::heal: break;
  }
  out.push_back(fault);
}

void draw_fault_to_play_out(FaultKind kind, const sim::RunConfig& config, std::int64_t aftermath_us, sim::Prng& prng,
                            std::vector<FaultSpec>& out) {
  const std::size_t first = out.size();
  draw_fault(kind, config, prng, out);
  if (out.size() == first) return;
  std::int64_t over_us = 0;
  for (std::size_t i = first; i < out.size(); ++i) over_us = std::max(over_us, out[i].at_us + std::max<std::int64_t>(0, out[i].duration_us));
  const std::int64_t late_us = over_us - (config.duration_us - aftermath_us);
  const std::int64_t shift_us = std::clamp<std::int64_t>(late_us, 0, out[first].at_us);
  for (std::size_t i = first; i < out.size(); ++i) out[i].at_us -= shift_us;
}

void draw_workload(const sim::RunConfig& base, bool can_renew, sim::Prng& prng, sim::RunConfig& out) {
  const std::int64_t ttl = ttl_us(base);
  out.clients = std::vector<sim::ClientConfig>(static_cast<std::size_t>(prng.between(2, 5)));
  if (base.workload.nest_every > 0) {
    static constexpr std::uint32_t kNestEvery[] = {1, 2, 3};
    out.workload.nest_every = kNestEvery[prng.below(3)];
  }
  if (can_renew) out.renewal.watchdog = prng.below(2) == 0;
  // Holds well inside and near the TTL (permille of it); past it only when the run renews (a watchdog, a lock
  // that renews by itself, or a base whose own holds pass the TTL). A holder that outstays a lease nothing
  // renews is a misuse every auto-release lock "fails", and would hide every other find; a renewal's own bugs
  // (client-reentrant's cap on renewals) show only in holds past the TTL.
  static constexpr std::int64_t kHoldPermille[] = {50, 300, 800, 1500, 3000};
  const bool renews_itself = variant_row(base.variant).renewal == Renewal::in_background;
  const bool renews = out.renewal.watchdog || renews_itself || base.workload.hold_max_us > ttl;
  const std::int64_t permille = kHoldPermille[prng.below(renews ? 5 : 3)];
  const std::int64_t hold_max = std::max<std::int64_t>(2000, ttl * permille / 1000 / 1000 * 1000);
  out.workload.hold_max_us = hold_max;
  out.workload.hold_min_us = hold_max / 2 / 1000 * 1000;
  // A careful holder (it checks its lease before writing) in one run of four: what a pause cannot break
  // then is the lock's, and a lock whose lease lies about its validity shows.
  out.workload.check_lease_before_write = prng.below(4) == 0;
}

void normalize(std::vector<FaultSpec>& faults) {
  for (FaultSpec& fault : faults) {
    fault.at_us = fault.at_us / 1000 * 1000;
    fault.duration_us = fault.duration_us / 1000 * 1000;
    fault.delta_us = fault.delta_us / 1000 * 1000;
  }
  std::stable_sort(faults.begin(), faults.end(), [](const FaultSpec& a, const FaultSpec& b) { return a.at_us < b.at_us; });
}

}  // namespace lockcheck::explore
