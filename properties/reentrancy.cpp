// reentrancy: when the owner acquires a lock it already holds, (1) the inner release must keep the lock
// (appid-thread: inner unlock frees the outer section) and (2) the reentry must not lower the key's deadline
// (F17: lock(60 s) then lock(1 s)), and (3) the outermost release must leave no hold counted (a hold count above
// the acquisitions: released_holds.hpp). Read from ops (who holds, how deep) and server facts (what the node did
// while a nested acquire or an inner release was in flight, and after the last release). Correct counting (S9)
// is never flagged.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <vector>

#include "checkers.hpp"
#include "describe.hpp"
#include "released_holds.hpp"

namespace lockcheck::properties {
namespace {

// Where a key's deadline lies in true time, from one server line: when the event ran (between since_us and t:
// a real node's notification is read a little after the command ran) plus what the node then had left. The
// node's clock and the deadline are whole milliseconds (PEXPIRETIME, the MONITOR stamp, TIME's reading), so
// what was left is known to a millisecond either way. A correct reentry with the same TTL moves the deadline
// on by the time between the two settings, which may be under a millisecond: judged only past this window.
struct DeadlineWindow {
  std::int64_t earliest_ms = 0;
  std::int64_t latest_ms = 0;
  std::int64_t at_ms = 0;  // as read at t: what a witness reports
};

DeadlineWindow deadline_window(const ServerEvent& server) {
  const std::int64_t left_ms = server.expire_at_ms - server.node_time_ms;
  constexpr std::int64_t kResolutionMs = 1;
  return DeadlineWindow{server.ran_from_us() / 1'000 + left_ms - kResolutionMs,
                        (server.t + 999) / 1'000 + left_ms + kResolutionMs, server.t / 1'000 + left_ms};
}

}  // namespace

Verdict check_reentrancy(const History& history) {
  Verdict verdict;
  verdict.property = "reentrancy";
  std::map<std::pair<std::int64_t, std::string>, std::int64_t> depth;       // (process, key) -> holds
  // (process, key) -> its pending invokes: a watchdog's renew may be in flight beside a nested acquire, and
  // must not hide what the nested acquire did to the deadline.
  std::map<std::pair<std::int64_t, std::string>, std::vector<const Op*>> in_flight;
  // (node, key) -> where its deadline lies in true time, as the history tells it
  std::map<std::pair<std::int64_t, std::string>, DeadlineWindow> deadlines;
  std::map<std::pair<std::int64_t, std::string>, std::int64_t> hold_began_us;  // (process, key) -> outermost ok
  // node -> when it last came back with older data or was promoted (F10, F5): the counts it keeps may be behind.
  std::map<std::int64_t, std::int64_t> rolled_back_at;
  std::int64_t nested = 0;
  std::int64_t violations = 0;
  auto flag = [&](std::vector<std::int64_t> witnesses, std::string cause) {
    if (violations++ > 0) return;
    verdict.witnesses = std::move(witnesses);
    verdict.cause = std::move(cause);
  };
  for (const Event& event : history.events) {
    if (const auto* op = std::get_if<Op>(&event)) {
      std::pair<std::int64_t, std::string> id{op->process, op->key};
      std::vector<const Op*>& pending = in_flight[id];
      if (op->type == OpType::invoke) {
        pending.push_back(op);
        if (op->fn == OpFn::release && depth[id] > 0) --depth[id];
      } else {
        auto same_fn = std::find_if(pending.begin(), pending.end(), [&](const Op* p) { return p->fn == op->fn; });
        if (same_fn != pending.end()) pending.erase(same_fn);
        if (op->fn == OpFn::acquire && op->type == OpType::ok && depth[id] == 0) hold_began_us[id] = op->t;
        if (op->fn == OpFn::acquire && op->type == OpType::ok && depth[id]++ > 0) ++nested;
      }
      continue;
    }
    if (const auto* fault = std::get_if<FaultEvent>(&event);
        fault && ((fault->is(sim::FaultKind::node_restart) && fault->mode != "kept") || fault->is(sim::FaultKind::failover))) {
      rolled_back_at[fault->node] = fault->t;
      continue;
    }
    if (const auto* fault = std::get_if<FaultEvent>(&event); fault && fault->is(sim::FaultKind::crash)) {
      for (auto& [id, holds] : depth) {
        if (id.first == fault->process) holds = 0;
      }
      for (auto& [id, pending] : in_flight) {
        if (id.first == fault->process) pending.clear();  // a crashed process's invokes never complete
      }
      continue;
    }
    const auto* server = std::get_if<ServerEvent>(&event);
    if (server == nullptr) continue;
    std::pair<std::int64_t, std::string> node_key{server->node, server->key};
    // Deadlines compare in true time (when the event ran plus what the node then had left): a node clock jump
    // between two settings moves the node's raw deadlines, not what the owner is given.
    const auto known = deadlines.find(node_key);
    const bool had_deadline = known != deadlines.end();
    const DeadlineWindow previous = had_deadline ? known->second : DeadlineWindow{};
    const DeadlineWindow window = deadline_window(*server);
    if (server->event == ServerEventKind::expire_set) deadlines[node_key] = window;
    if (server->event == ServerEventKind::deleted || server->event == ServerEventKind::expired ||
        server->event == ServerEventKind::evicted || server->event == ServerEventKind::lost) {
      deadlines.erase(node_key);
    }
    if (server->by < 0 || server->replicated) continue;
    std::pair<std::int64_t, std::string> id{server->by, server->key};
    auto pending = in_flight.find(id);
    if (pending == in_flight.end() || pending->second.empty() || depth[id] == 0) continue;  // nested ops only
    // The op that caused it: a nested acquire or an inner release when one is in flight, else a renewal.
    auto cause = std::find_if(pending->second.begin(), pending->second.end(),
                              [](const Op* p) { return p->fn != OpFn::renew; });
    const Op& op = cause != pending->second.end() ? **cause : *pending->second.front();
    // A node that lost writes while the outer hold was held counts what it kept (the gate at 1000 runs, seeds 205
    // and 217): the inner release deleting on its count is the node's doing.
    const auto rolled_back = rolled_back_at.find(server->node);
    const bool count_rolled_back = rolled_back != rolled_back_at.end() && rolled_back->second >= hold_began_us[id];
    if (server->event == ServerEventKind::deleted && op.fn == OpFn::release && !count_rolled_back) {
      flag({op.i, server->i},
           fmt::format("process {}'s inner release of '{}' at t={} deleted the key on node {} while it still held "
                       "{} outer hold(s)",
                       server->by, server->key, format_time_us(op.t), server->node, depth[id]));
    }
    // Lowered only if the new deadline's latest possible time is before the old one's earliest.
    if (server->event == ServerEventKind::expire_set && op.fn != OpFn::renew && had_deadline &&
        window.latest_ms < previous.earliest_ms) {
      flag({op.i, server->i},
           fmt::format("process {}'s {} of '{}' while already holding it lowered the deadline on node {} by {} "
                       "(to {} from now)",
                       server->by, op.fn == OpFn::acquire ? "reentrant acquire" : "inner release", server->key,
                       server->node, format_duration_us((previous.at_ms - window.at_ms) * 1'000),
                       format_duration_us((server->expire_at_ms - server->node_time_ms) * 1'000)));
    }
  }
  for (ReleasedHoldLeft& left : released_holds_left(history)) flag(std::move(left.witnesses), std::move(left.cause));
  conclude(verdict, violations, nested,
           fmt::format("{} reentrancy violation(s), {} nested acquisition(s)", violations, nested),
           "not exercised (no nested acquisition)",
           fmt::format("{} nested acquisition(s): inner releases kept the lock, no deadline lowered", nested));
  return verdict;
}

}  // namespace lockcheck::properties
