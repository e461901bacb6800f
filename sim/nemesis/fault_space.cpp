#include "nemesis/fault_space.hpp"

#include <algorithm>

#include "lockcheck/assert.hpp"

namespace lockcheck::sim {
namespace {

int pick(const std::vector<int>& from, Prng& prng) {
  LOCKCHECK_ASSERT(!from.empty());  // a kind drawn only where its row's `needs` hold has a target
  return from[prng.below(from.size())];
}

// A target among the ones a family names (FaultRanges::nodes, ::processes), each one the kind can take.
int pick_named(const std::vector<int>& named, const std::vector<int>& can_take, Prng& prng) {
  const int target = pick(named, prng);
  LOCKCHECK_ASSERT(std::find(can_take.begin(), can_take.end(), target) != can_take.end());
  return target;
}

std::vector<int> every_index(std::size_t count) {
  std::vector<int> out;
  for (std::size_t i = 0; i < count; ++i) out.push_back(static_cast<int>(i));
  return out;
}

int any_process(const RunConfig& config, const FaultRanges& ranges, Prng& prng) {
  if (!ranges.processes.empty()) return pick_named(ranges.processes, every_index(config.clients.size()), prng);
  return static_cast<int>(prng.below(static_cast<std::uint64_t>(config.clients.size())));
}

int any_node(const RunConfig& config, const FaultRanges& ranges, Prng& prng) {
  if (!ranges.nodes.empty()) return pick_named(ranges.nodes, every_index(config.nodes.size()), prng);
  return static_cast<int>(prng.below(config.nodes.size()));
}

// One of `can_take` (a failover's replicas, a partition's masters), or of the family's named nodes.
int node_among(const std::vector<int>& can_take, const FaultRanges& ranges, Prng& prng) {
  return ranges.nodes.empty() ? pick(can_take, prng) : pick_named(ranges.nodes, can_take, prng);
}

// One draw's value: the range in thousandths of the unit, at least the floor when not negative.
std::int64_t scaled(const FaultRanges& ranges, const DrawRange& range, Prng& prng) {
  if (range.fixed) return range.low;
  const std::int64_t value = ranges.unit_us * prng.between(range.low, range.high) / 1000;
  return value < 0 ? value : std::max(ranges.floor_us, value);
}

std::int64_t signed_value(const FaultRanges& ranges, std::int64_t magnitude, Prng& prng) {
  if (!ranges.sign_by_coin) return magnitude;
  return magnitude * (prng.below(2) == 0 ? 1 : -1);
}

// A rate's draw (ppm), taken as the range states it: no unit, no floor.
std::int64_t ppm(const DrawRange& range, Prng& prng) { return range.fixed ? range.low : prng.between(range.low, range.high); }

// Draws one fault and, through `ended_by`, the fault that ends it.
class Draw {
 public:
  Draw(FaultKind kind, std::int64_t at_us, const RunConfig& config, const FaultRanges& ranges, Prng& prng,
       std::vector<FaultSpec>& out)
      : fault_{.at_us = at_us, .kind = kind}, config_(config), ranges_(ranges), prng_(prng), out_(out) {}

  void run() {
    LOCKCHECK_ASSERT(drawn_on_its_own(fault_.kind));  // a follow-up is drawn with the fault it ends
    switch (fault_.kind) {
      case FaultKind::pause: return pause();
      case FaultKind::crash: return crash();
      case FaultKind::client_clock_jump: return clock_jump(true);
      case FaultKind::client_clock_drift: return clock_drift(true);
      case FaultKind::node_clock_jump: return clock_jump(false);
      case FaultKind::node_clock_drift: return clock_drift(false);
      case FaultKind::node_crash: return node_crash();
      case FaultKind::failover: fault_.node = node_among(replica_nodes(config_), ranges_, prng_); return done();
      case FaultKind::partition: return partition();
      case FaultKind::loss: return loss();
      case FaultKind::slow_node: return slow_node();
      case FaultKind::evict: return evict();
      case FaultKind::replica_partition: return replica_partition();
      case FaultKind::slot_migration: return slot_migration();
      case FaultKind::split_brain: return split_brain();
      case FaultKind::restart:
      case FaultKind::node_restart:
      case FaultKind::heal: return;
    }
  }

 private:
  void done() { out_.push_back(fault_); }

  void ended_by(FaultSpec ending, std::int64_t after_us) {
    ending.at_us = fault_.at_us + after_us;
    if (ranges_.end_within_run) ending.at_us = std::min(config_.duration_us, ending.at_us);
    out_.push_back(fault_);
    out_.push_back(ending);
  }

  void pause() {
    fault_.process = any_process(config_, ranges_, prng_);
    fault_.duration_us = scaled(ranges_, ranges_.pause, prng_);
    done();
  }

  void crash() {
    fault_.process = any_process(config_, ranges_, prng_);
    ended_by(FaultSpec{.kind = FaultKind::restart, .process = fault_.process}, scaled(ranges_, ranges_.crash_for, prng_));
  }

  void clock_jump(bool of_client) {
    (of_client ? fault_.process : fault_.node) = of_client ? any_process(config_, ranges_, prng_) : any_node(config_, ranges_, prng_);
    fault_.delta_us = signed_value(ranges_, scaled(ranges_, ranges_.clock_jump, prng_), prng_);
    done();
  }

  void clock_drift(bool of_client) {
    (of_client ? fault_.process : fault_.node) = of_client ? any_process(config_, ranges_, prng_) : any_node(config_, ranges_, prng_);
    fault_.drift_ppm = signed_value(ranges_, ppm(ranges_.drift_ppm, prng_), prng_);
    done();
  }

  void node_crash() {
    fault_.node = any_node(config_, ranges_, prng_);
    FaultSpec restart{.kind = FaultKind::node_restart, .node = fault_.node};
    restart.mode = ranges_.restart_mode ? *ranges_.restart_mode : static_cast<RestartMode>(prng_.below(3));
    ended_by(restart, scaled(ranges_, ranges_.node_crash_for, prng_));
  }

  void partition() {
    fault_.process = any_process(config_, ranges_, prng_);
    fault_.node = node_among(master_nodes(config_), ranges_, prng_);
    ended_by(FaultSpec{.kind = FaultKind::heal}, scaled(ranges_, ranges_.partition_for, prng_));
  }

  void loss() {
    fault_.request_loss_ppm = static_cast<std::uint32_t>(ppm(ranges_.loss_ppm, prng_));
    fault_.reply_loss_ppm = static_cast<std::uint32_t>(ppm(ranges_.loss_ppm, prng_));
    // It ends by setting the links back to the configuration's own rates.
    ended_by(FaultSpec{.kind = FaultKind::loss, .request_loss_ppm = config_.link.request_loss_ppm,
                       .reply_loss_ppm = config_.link.reply_loss_ppm},
             scaled(ranges_, ranges_.loss_for, prng_));
  }

  void slow_node() {
    // Slower than the client's command timeout, a node is unreachable (a partition, drawn as such) and
    // requests overtake one another; a slow node here answers late but within the timeout.
    fault_.node = any_node(config_, ranges_, prng_);
    fault_.duration_us = std::min(scaled(ranges_, ranges_.slow_by, prng_), config_.command_timeout_us * 8 / 10);
    ended_by(FaultSpec{.kind = FaultKind::slow_node, .node = fault_.node, .duration_us = 0}, scaled(ranges_, ranges_.slow_for, prng_));
  }

  void evict() {
    fault_.node = node_among(master_nodes(config_), ranges_, prng_);
    if (ranges_.evict_target) fault_.evict_target = *ranges_.evict_target;
    else fault_.evict_target = prng_.below(2) == 0 ? EvictTarget::lock : EvictTarget::any;
    done();
  }

  void replica_partition() {
    fault_.node = node_among(replica_nodes(config_), ranges_, prng_);
    ended_by(FaultSpec{.kind = FaultKind::heal}, scaled(ranges_, ranges_.replica_cut_for, prng_));
  }

  void slot_migration() {
    fault_.node = node_among(master_nodes(config_), ranges_, prng_);
    fault_.duration_us = scaled(ranges_, ranges_.migration_for, prng_);
    done();
  }

  void split_brain() {
    fault_.node = config_.sentinel.sentinels > 0 ? 0 : node_among(master_nodes(config_), ranges_, prng_);
    fault_.process = any_process(config_, ranges_, prng_);
    ended_by(FaultSpec{.kind = FaultKind::heal}, scaled(ranges_, ranges_.split_for, prng_));
  }

  FaultSpec fault_;
  const RunConfig& config_;
  const FaultRanges& ranges_;
  Prng& prng_;
  std::vector<FaultSpec>& out_;
};

}  // namespace

FaultRanges ttl_scaled_ranges(const RunConfig& config) {
  FaultRanges ranges;
  ranges.unit_us = config.lock.ttl.count() * 1000;
  ranges.floor_us = 1000;
  ranges.sign_by_coin = true;
  ranges.end_within_run = true;
  ranges.pause = {300, 3000};
  ranges.crash_for = {100, 2000};
  ranges.clock_jump = {200, 3000};
  ranges.drift_ppm = {1000, 300000};
  ranges.node_crash_for = {50, 2000};
  ranges.partition_for = {200, 3000};
  ranges.loss_ppm = {0, 300000};
  ranges.loss_for = {500, 5000};
  ranges.slow_by = {50, 1000};
  ranges.slow_for = {500, 4000};
  ranges.replica_cut_for = {200, 3000};
  ranges.migration_for = {100, 2000};
  ranges.split_for = {1000, 5000};
  return ranges;
}

FaultRanges nemesis_ranges(const NemesisConfig& nemesis) {
  FaultRanges ranges;  // unit 1 ms: a range's thousandths are microseconds, as [nemesis] states them
  ranges.pause = {nemesis.pause_min_us, nemesis.pause_max_us};
  ranges.crash_for = {nemesis.restart_after_us, nemesis.restart_after_us, true};
  ranges.partition_for = {nemesis.partition_min_us, nemesis.partition_max_us};
  ranges.clock_jump = {-nemesis.node_clock_jump_max_us, nemesis.node_clock_jump_max_us};
  ranges.node_crash_for = {nemesis.node_restart_after_us, nemesis.node_restart_after_us, true};
  ranges.restart_mode = nemesis.restart_mode;
  return ranges;
}

bool drawn_on_its_own(FaultKind kind) { return !fault_row(kind).follow_up; }

std::vector<FaultKind> applicable_kinds(const RunConfig& config) {
  std::vector<FaultKind> out;
  for (const FaultKind kind : kFaultKinds) {
    if (drawn_on_its_own(kind) && topology_has(fault_row(kind).needs, config)) out.push_back(kind);
  }
  return out;
}

std::vector<FaultKind> searched_kinds(const RunConfig& config, const std::vector<FaultKind>& without) {
  std::vector<FaultKind> kinds = applicable_kinds(config);
  std::erase_if(kinds, [&](FaultKind kind) { return std::find(without.begin(), without.end(), kind) != without.end(); });
  return kinds;
}

void leave_out(const std::vector<FaultKind>& without, std::vector<FaultSpec>& faults) {
  const auto left_out = [&](FaultKind kind) { return std::find(without.begin(), without.end(), kind) != without.end(); };
  // A follow-up goes with the faults it ends (a crash's restart, a node crash's node restart); a heal, which
  // ends every cut at once, stays while any kind it ends is searched.
  const auto ends_only_left_out = [&](FaultKind follow_up) {
    const std::vector<FaultKind> ended = kinds_ended_by(follow_up);
    return !ended.empty() && std::all_of(ended.begin(), ended.end(), left_out);
  };
  std::erase_if(faults, [&](const FaultSpec& fault) { return left_out(fault.kind) || ends_only_left_out(fault.kind); });
}

std::vector<FaultKind> swarm_subset(const std::vector<FaultKind>& kinds, Prng& prng) {
  std::vector<FaultKind> out;
  for (const FaultKind kind : kinds) {
    if (prng.below(2) == 0) out.push_back(kind);
  }
  if (out.empty() && !kinds.empty()) out.push_back(kinds[prng.below(kinds.size())]);
  return out;
}

void draw_fault_at(FaultKind kind, std::int64_t at_us, const RunConfig& config, const FaultRanges& ranges, Prng& prng,
                   std::vector<FaultSpec>& out) {
  Draw(kind, at_us, config, ranges, prng, out).run();
}

void draw_fault(FaultKind kind, const RunConfig& config, Prng& prng, std::vector<FaultSpec>& out) {
  const std::int64_t at_us = prng.between(0, config.duration_us * 4 / 5);
  draw_fault_at(kind, at_us, config, ttl_scaled_ranges(config), prng, out);
}

void draw_fault_to_play_out(FaultKind kind, const RunConfig& config, std::int64_t aftermath_us, Prng& prng,
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

void normalize(std::vector<FaultSpec>& faults) {
  for (FaultSpec& fault : faults) {
    fault.at_us = fault.at_us / 1000 * 1000;
    fault.duration_us = fault.duration_us / 1000 * 1000;
    fault.delta_us = fault.delta_us / 1000 * 1000;
  }
  std::stable_sort(faults.begin(), faults.end(), [](const FaultSpec& a, const FaultSpec& b) { return a.at_us < b.at_us; });
}

}  // namespace lockcheck::sim
