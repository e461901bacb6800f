#include "timeline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "properties/history_facts.hpp"

namespace lockcheck::reports {
namespace {

using properties::Event;
using properties::FaultEvent;
using properties::Op;
using properties::OpFn;
using properties::OpType;
using properties::ResourceEvent;
using properties::ServerEvent;
using properties::ServerEventKind;

std::string short_token(const std::string& token) { return token.size() > 8 ? token.substr(0, 8) : token; }

// One outer hold of a client, with what it believed: used for the lanes and for the client-level overlap.
struct Hold {
  std::int64_t acquire_line = 0;
  std::int64_t from_us = 0;
  std::int64_t to_us = -1;  // release invoke or crash; -1 while open
  std::int64_t valid_until_us = -1;
  std::int64_t last_action_us = -1;  // last resource read or write inside the hold
  bool shared = false;
  std::string token;
  std::string key;
  std::vector<std::pair<std::int64_t, std::int64_t>> validity;  // (acquire or renew ok, valid_until) pieces

  // Until when the client acted as the holder (the client-level checker's "belief stretch").
  std::int64_t belief_end_us() const {
    const std::int64_t believed = valid_until_us < 0 ? to_us : std::min(valid_until_us, to_us);
    return std::max(believed, last_action_us);
  }
};

class Builder {
 public:
  explicit Builder(const properties::History& history)
      : history_(history), end_us_(history.end_us()), lock_keys_(properties::lock_keys(history)) {
    for (std::int64_t p = 0; p < history.meta.clients; ++p) {
      lanes_.push_back(Lane{fmt::format("client-{}", p), fmt::format("client {}", p), {}, {}});
    }
    for (std::int64_t n = 0; n < history.meta.nodes; ++n) {
      lanes_.push_back(Lane{fmt::format("node-{}", n), fmt::format("node {}", n), {}, {}});
    }
  }

  void read_all() {
    for (const Event& event : history_.events) {
      if (const auto* op = std::get_if<Op>(&event)) on_op(*op);
      if (const auto* resource = std::get_if<ResourceEvent>(&event)) on_resource(*resource);
      if (const auto* fault = std::get_if<FaultEvent>(&event)) on_fault(*fault);
      if (const auto* server = std::get_if<ServerEvent>(&event)) on_server(*server);
    }
    std::vector<std::int64_t> still_holding;
    for (const auto& [process, hold] : open_holds_) still_holding.push_back(process);
    for (const std::int64_t process : still_holding) close_hold(process, end_us_);
    for (auto& [key, span] : open_spans_) close_span(key, end_us_);
    open_spans_.clear();
  }

  Lane* client_lane(std::int64_t process) {
    if (process < 0 || process >= history_.meta.clients) return nullptr;
    return &lanes_[static_cast<std::size_t>(process)];
  }
  Lane* node_lane(std::int64_t node) {
    if (node < 0 || node >= history_.meta.nodes) return nullptr;
    return &lanes_[static_cast<std::size_t>(history_.meta.clients + node)];
  }
  Lane* lane_of(const Event& event) {
    if (const auto* op = std::get_if<Op>(&event)) return client_lane(op->process);
    if (const auto* resource = std::get_if<ResourceEvent>(&event)) return client_lane(resource->process);
    if (const auto* server = std::get_if<ServerEvent>(&event)) return node_lane(server->node);
    if (const auto* fault = std::get_if<FaultEvent>(&event)) {
      return fault->process >= 0 ? client_lane(fault->process) : node_lane(fault->node);
    }
    return nullptr;
  }

  std::vector<Lane> take_lanes() { return std::move(lanes_); }
  std::vector<Mark> take_global_marks() { return std::move(global_marks_); }
  const std::vector<std::pair<std::int64_t, Hold>>& holds() const { return closed_holds_; }

 private:
  // Open spans are keyed by (lane index, kind, detail) so that e.g. two partitions of one client coexist.
  using SpanKey = std::tuple<std::size_t, std::string, std::string>;

  void open_span(Lane* lane, const std::string& kind, const std::string& detail, std::int64_t t, std::int64_t owner,
                 std::string label) {
    if (lane == nullptr) return;
    const SpanKey key{static_cast<std::size_t>(lane - lanes_.data()), kind, detail};
    close_span(key, t);
    open_spans_[key] = Span{t, -1, kind, owner, std::move(label)};
  }
  void close_span(const SpanKey& key, std::int64_t t) {
    auto it = open_spans_.find(key);
    if (it == open_spans_.end() || it->second.to_us >= 0) return;
    it->second.to_us = t;
    lanes_[std::get<0>(key)].spans.push_back(it->second);
  }
  void close_spans(Lane* lane, const std::string& kind, std::int64_t t) {
    if (lane == nullptr) return;
    const auto index = static_cast<std::size_t>(lane - lanes_.data());
    for (auto& [key, span] : open_spans_) {
      if (std::get<0>(key) == index && std::get<1>(key) == kind) close_span(key, t);
    }
  }

  void on_op(const Op& op) {
    Lane* lane = client_lane(op.process);
    if (lane == nullptr || op.fn == OpFn::other) return;
    const auto depth_key = std::make_pair(op.process, op.key);
    if (op.fn == OpFn::acquire && op.type == OpType::ok) {
      if (depth_[depth_key]++ == 0) {
        Hold hold;
        hold.acquire_line = op.i;
        hold.from_us = op.t;
        hold.valid_until_us = op.valid_until_us.value_or(-1);
        hold.shared = op.shared;
        hold.token = op.token;
        hold.key = op.key;
        open_holds_[op.process] = hold;
      }
      if (op.valid_until_us) open_holds_[op.process].validity.emplace_back(op.t, *op.valid_until_us);
    } else if (op.fn == OpFn::renew && op.type == OpType::ok && op.valid_until_us) {
      auto it = open_holds_.find(op.process);
      if (it != open_holds_.end()) {
        it->second.valid_until_us = std::max(it->second.valid_until_us, *op.valid_until_us);
        it->second.validity.emplace_back(op.t, *op.valid_until_us);
      }
    } else if (op.fn == OpFn::release && op.type == OpType::invoke) {
      auto& depth = depth_[depth_key];
      if (depth > 0 && --depth == 0) close_hold(op.process, op.t);
    }
  }

  void close_hold(std::int64_t process, std::int64_t t) {
    auto it = open_holds_.find(process);
    if (it == open_holds_.end()) return;
    Hold hold = it->second;
    open_holds_.erase(it);
    hold.to_us = t;
    for (auto& [key, depth] : depth_) {
      if (key.first == process) depth = 0;
    }
    Lane* lane = client_lane(process);
    lane->spans.push_back(Span{hold.from_us, t, hold.shared ? "read-hold" : "hold", process,
                               fmt::format("{} hold of '{}' (token {})", hold.shared ? "read" : "write", hold.key,
                                           short_token(hold.token))});
    // The client believes it holds the lock until its validity ends or it lets go, whichever comes first.
    for (const auto& [from_us, until_us] : hold.validity) {
      if (from_us < std::min(until_us, t)) lane->spans.push_back(Span{from_us, std::min(until_us, t), "validity", process, ""});
    }
    closed_holds_.emplace_back(process, hold);
  }

  void on_resource(const ResourceEvent& resource) {
    auto it = open_holds_.find(resource.process);
    if (it != open_holds_.end()) it->second.last_action_us = resource.t;
    if (resource.f != "write") return;
    Lane* lane = client_lane(resource.process);
    if (lane == nullptr) return;
    std::string kind = !resource.accepted ? "rejected-write" : resource.stale ? "stale-write" : "write";
    lane->marks.push_back(Mark{resource.t, kind, fmt::format("{} of value {} (read version {})", kind, resource.value,
                                                              resource.read_version.value_or(-1)), false});
  }

  void on_fault(const FaultEvent& fault) {
    if (!fault.kind) return on_follow_up(fault);
    Lane* client = client_lane(fault.process);
    Lane* node = node_lane(fault.node);
    // Clock faults and a slow node mark the lane their row names (a client's or a node's).
    Lane* own_lane = sim::fault_row(*fault.kind).lane == sim::FaultLane::client ? client : node;
    const std::string name(fault.name());
    // Every kind is a case (no default): a new kind is named here by the compiler.
    switch (*fault.kind) {
      case sim::FaultKind::pause:
        open_span(client, "pause", "", fault.t, fault.process, fmt::format("paused for {} ms", fault.duration_us / 1000));
        break;
      case sim::FaultKind::crash:
        close_hold(fault.process, fault.t);
        open_span(client, "crash", "", fault.t, fault.process, "crashed");
        break;
      case sim::FaultKind::restart: close_spans(client, "crash", fault.t); break;
      case sim::FaultKind::partition:
        open_span(client, "partition", std::to_string(fault.node), fault.t, fault.process,
                  fmt::format("cut from node {}", fault.node));
        break;
      case sim::FaultKind::heal:
        for (std::int64_t p = 0; p < history_.meta.clients; ++p) close_spans(client_lane(p), "partition", fault.t);
        global_marks_.push_back(Mark{fault.t, name, "partitions healed", false});
        break;
      case sim::FaultKind::node_crash: open_span(node, "down", "", fault.t, -1, "node crashed"); break;
      case sim::FaultKind::node_restart:
        close_spans(node, "down", fault.t);
        if (node) node->marks.push_back(Mark{fault.t, name, fmt::format("restarted, data {}", fault.mode), false});
        break;
      case sim::FaultKind::failover:
        if (node) node->marks.push_back(Mark{fault.t, name, fmt::format("promoted (was replica of node {})", fault.from), false});
        if (Lane* old = node_lane(fault.from)) {
          old->marks.push_back(Mark{fault.t, name, fmt::format("failed over to node {}", fault.node), false});
          open_span(old, "down", "", fault.t, -1, "fenced off after failover");
        }
        break;
      case sim::FaultKind::client_clock_jump:
      case sim::FaultKind::node_clock_jump:
        if (own_lane) own_lane->marks.push_back(Mark{fault.t, name, fmt::format("clock jumps {:+} ms", fault.delta_us / 1000), false});
        break;
      case sim::FaultKind::client_clock_drift:
      case sim::FaultKind::node_clock_drift:
        if (own_lane) own_lane->marks.push_back(Mark{fault.t, name, fmt::format("clock drift {} ppm", fault.drift_ppm), false});
        break;
      case sim::FaultKind::slow_node:
        if (own_lane) own_lane->marks.push_back(Mark{fault.t, name, fmt::format("slow by {} ms", fault.delay_us / 1000), false});
        break;
      case sim::FaultKind::loss:
        global_marks_.push_back(Mark{fault.t, name, fmt::format("loss: requests {} ppm, replies {} ppm",
                                                                   fault.request_ppm, fault.reply_ppm), false});
        break;
      // Drawn by what they do to the nodes' keys and roles: the node's "evicted" server event, a cluster's or
      // the sentinels' failover and rejoin lines; a replica's cut link shows in the lag of what it applies.
      case sim::FaultKind::evict:
      case sim::FaultKind::replica_partition:
      case sim::FaultKind::slot_migration:
      case sim::FaultKind::split_brain: break;
    }
  }

  void on_follow_up(const FaultEvent& fault) {
    if (fault.is(sim::FaultFollowUp::resume)) close_spans(client_lane(fault.process), "pause", fault.t);
  }

  void on_server(const ServerEvent& server) {
    // A lock's keys only: a variant's bookkeeping beside them (a reentrant request's record, a read-write token
    // given back) is not a hold, and drew a bar per request.
    if (server.replicated || lock_keys_.count(server.key) == 0) return;
    Lane* lane = node_lane(server.node);
    if (lane == nullptr) return;
    const std::string kind(properties::to_string(server.event));
    switch (server.event) {
      case ServerEventKind::created:
      case ServerEventKind::overwritten:
        open_span(lane, "instance", server.key, server.t, server.by,
                  fmt::format("'{}' held by client {} ({})", server.key, server.by, short_token(server.value)));
        break;
      case ServerEventKind::deleted:
      case ServerEventKind::expired:
      case ServerEventKind::evicted:
      case ServerEventKind::lost:
        close_span(SpanKey{static_cast<std::size_t>(lane - lanes_.data()), "instance", server.key}, server.t);
        break;
      default:
        return;  // modified, expire_set, expire_removed: the instance goes on
    }
    const std::string by = server.by >= 0 ? fmt::format(" by client {}", server.by) : "";
    lane->marks.push_back(Mark{server.t, kind, fmt::format("'{}' {}{} ({})", server.key, kind, by, server.command), false});
  }

  const properties::History& history_;
  std::int64_t end_us_;
  std::vector<Lane> lanes_;
  std::set<std::string> lock_keys_;
  std::vector<Mark> global_marks_;
  std::map<SpanKey, Span> open_spans_;
  std::map<std::pair<std::int64_t, std::string>, int> depth_;
  std::map<std::int64_t, Hold> open_holds_;
  std::vector<std::pair<std::int64_t, Hold>> closed_holds_;
};

// The client level: the stretch in which the witnesses' belief stretches overlap; else the witnesses' span.
Highlight highlight_of(const properties::Verdict& verdict, const properties::History& history,
                       const std::vector<std::pair<std::int64_t, Hold>>& holds) {
  std::int64_t first = history.end_us(), last = 0;
  for (const std::int64_t line : verdict.witnesses) {
    if (line < 0 || static_cast<std::size_t>(line) >= history.events.size()) continue;
    const std::int64_t t = properties::event_time(history.events[static_cast<std::size_t>(line)]);
    first = std::min(first, t);
    last = std::max(last, t);
  }
  if (first > last) first = last;
  Highlight highlight{first, last, verdict.property};
  if (verdict.property != "mutual_exclusion_client") return highlight;
  const std::set<std::int64_t> witnesses(verdict.witnesses.begin(), verdict.witnesses.end());
  std::int64_t from = -1, to = history.end_us();
  int found = 0;
  for (const auto& [process, hold] : holds) {
    if (witnesses.count(hold.acquire_line) == 0) continue;
    ++found;
    from = std::max(from, hold.from_us);
    to = std::min(to, hold.belief_end_us());
  }
  if (found >= 2 && from < to) return Highlight{from, to, verdict.property};
  return highlight;
}

void clip(Lane& lane, std::int64_t from_us, std::int64_t to_us) {
  std::vector<Span> spans;
  for (Span span : lane.spans) {
    if (span.to_us < from_us || span.from_us > to_us) continue;
    span.from_us = std::max(span.from_us, from_us);
    span.to_us = std::min(span.to_us, to_us);
    spans.push_back(std::move(span));
  }
  lane.spans = std::move(spans);
  std::erase_if(lane.marks, [&](const Mark& mark) { return mark.t_us < from_us || mark.t_us > to_us; });
  // Stable drawing order: by start time, then kind, then owner (the order of events already is stable).
  std::stable_sort(lane.spans.begin(), lane.spans.end(),
                   [](const Span& a, const Span& b) { return a.from_us < b.from_us; });
}

}  // namespace

Timeline build_timeline(const properties::History& history, const std::vector<properties::Verdict>& violated) {
  Builder builder(history);
  builder.read_all();

  Timeline timeline;
  timeline.from_us = 0;
  timeline.to_us = history.end_us();
  for (const properties::Verdict& verdict : violated) {
    timeline.highlights.push_back(highlight_of(verdict, history, builder.holds()));
  }
  if (!timeline.highlights.empty()) {
    std::int64_t first = timeline.to_us, last = 0;
    for (const Highlight& highlight : timeline.highlights) {
      first = std::min(first, highlight.from_us);
      last = std::max(last, highlight.to_us);
    }
    for (const properties::Verdict& verdict : violated) {
      for (const std::int64_t line : verdict.witnesses) {
        if (line < 0 || static_cast<std::size_t>(line) >= history.events.size()) continue;
        first = std::min(first, properties::event_time(history.events[static_cast<std::size_t>(line)]));
      }
    }
    const std::int64_t ttl_us = history.meta.ttl_ms * 1000;
    timeline.from_us = std::max<std::int64_t>(0, first - ttl_us);
    timeline.to_us = std::min(timeline.to_us, last + ttl_us / 2);
  }

  for (const properties::Verdict& verdict : violated) {
    for (const std::int64_t line : verdict.witnesses) {
      if (line < 0 || static_cast<std::size_t>(line) >= history.events.size()) continue;
      const Event& event = history.events[static_cast<std::size_t>(line)];
      if (Lane* lane = builder.lane_of(event)) {
        lane->marks.push_back(Mark{properties::event_time(event), "witness",
                                   fmt::format("history line {}: evidence for {}", line, verdict.property), true});
      }
    }
  }
  timeline.lanes = builder.take_lanes();
  for (Lane& lane : timeline.lanes) clip(lane, timeline.from_us, timeline.to_us);
  timeline.global_marks = builder.take_global_marks();
  std::erase_if(timeline.global_marks,
                [&](const Mark& mark) { return mark.t_us < timeline.from_us || mark.t_us > timeline.to_us; });
  return timeline;
}

}  // namespace lockcheck::reports
