#include "explain.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <variant>

#include "properties/describe.hpp"
#include "properties/history_facts.hpp"

namespace lockcheck::explore {
namespace {

using properties::Event;
using properties::FaultEvent;
using properties::Op;
using properties::OpType;
using properties::ServerEvent;

constexpr std::size_t kMostSentences = 8;

// What a node's copy of a key holds at one moment, as the history's server lines tell it.
struct KeyState {
  std::string owner;  // a token ("" none)
  std::int64_t left_ms = -1;  // what the node had left of its TTL at set_at_us; -1: no expiry
  std::int64_t set_at_us = 0;  // the true time of the server line that set left_ms
};

class Story {
 public:
  explicit Story(const properties::History& history) : history_(history) {
    for (const Event& event : history.events) {
      if (const auto* op = std::get_if<Op>(&event); op && !op->token.empty()) token_process_.emplace(op->token, op->process);
    }
    // A token no reply named (its process crashed, or its reply was lost) is still its writer's.
    for (const Event& event : history.events) {
      const auto* server = std::get_if<ServerEvent>(&event);
      if (server == nullptr || server->by < 0 || server->replicated || server->value.empty()) continue;
      if (server->event == properties::ServerEventKind::created || server->event == properties::ServerEventKind::overwritten) {
        token_process_.emplace(server->value, server->by);
      }
    }
  }

  std::vector<std::string> tell(const properties::Verdict& verdict) {
    const std::set<std::int64_t> witnesses(verdict.witnesses.begin(), verdict.witnesses.end());
    std::int64_t last_us = 0;
    for (const Event& event : history_.events) {
      if (witnesses.count(properties::event_index(event)) > 0) last_us = std::max(last_us, properties::event_time(event));
    }
    properties::NodeRoles<KeyState>::States keys;  // (node, key) -> state
    properties::NodeRoles<KeyState> roles;  // a promoted node holds its old master's keys
    struct Change {
      std::int64_t t = -1, by = -1;
      KeyState before;  // the key before the first line of this (t, by)
    };
    std::map<std::pair<std::int64_t, std::string>, Change> last_change;  // (node, key) -> its latest command's
    std::map<std::pair<std::int64_t, int>, const Op*> invoked;      // (process, fn) -> its pending invoke
    std::map<std::pair<std::int64_t, int>, const Op*> unknown;      // (process, fn) -> its last info reply
    std::map<std::int64_t, PendingRuns> pending;                    // process -> what its pending operation ran
    for (const Event& event : history_.events) {
      const std::int64_t index = properties::event_index(event);
      const bool witness = witnesses.count(index) > 0;
      if (const auto* server = std::get_if<ServerEvent>(&event)) {
        KeyState& state = keys[{server->node, server->key}];
        // One command's lines on a key (SET ... XX: overwritten, then expire_removed) each carry the key as the
        // command left it: "before" is the key before the command's first line.
        Change& change = last_change[{server->node, server->key}];
        if (change.t != server->t || change.by != server->by) change = Change{server->t, server->by, state};
        const KeyState before = change.before;
        after(*server, state);
        if (server->event == properties::ServerEventKind::lost) roles.on_lost(*server, keys);
        if (witness && server->by >= 0 && !server->replicated) said(describe_change(*server, before, state));
        if (server->by >= 0 && !server->replicated) ran(*server, witness, pending);
        continue;
      }
      if (const auto* fault = std::get_if<FaultEvent>(&event)) {
        roles.on_fault(*fault, keys);
        if (fault->t <= last_us) clock_fault(*fault);
        continue;
      }
      const auto* op = std::get_if<Op>(&event);
      if (op == nullptr) continue;
      const std::pair<std::int64_t, int> id{op->process, static_cast<int>(op->fn)};
      if (op->type == OpType::invoke) {
        if (const auto lost = unknown.find(id); lost != unknown.end() && op->t <= last_us) {
          lost_replies_.push_back(fmt::format("process {}'s {} got no reply at t={} ({}), and ran again at t={}", op->process,
                                              op->f, properties::format_time_us(lost->second->t),
                                              lost->second->detail.empty() ? "unknown outcome" : lost->second->detail,
                                              properties::format_time_us(op->t)));
          unknown.erase(lost);
        }
        invoked[id] = op;
        pending[op->process] = PendingRuns{op, {}};
        continue;
      }
      if (const auto it = pending.find(op->process); it != pending.end() && it->second.op->fn == op->fn) pending.erase(it);
      if (op->type == OpType::info) unknown[id] = op;
      if (witness && op->type == OpType::ok) said(describe_answer(*op, invoked[id], keys));
    }
    std::vector<std::string> out = std::move(sentences_);
    for (auto* more : {&lost_replies_, &clocks_}) {
      for (std::string& sentence : *more) {
        if (out.size() < kMostSentences) out.push_back(std::move(sentence));
      }
    }
    return out;
  }

 private:
  void said(std::string sentence) {
    if (!sentence.empty() && sentences_.size() < kMostSentences &&
        std::find(sentences_.begin(), sentences_.end(), sentence) == sentences_.end()) {
      sentences_.push_back(std::move(sentence));
    }
  }

  // A client that gets no reply sends its command again within the same operation (the history then shows one
  // invoke, and the command running twice): said when the second run is the violation's.
  struct PendingRuns {
    const Op* op = nullptr;
    std::vector<const ServerEvent*> runs;  // its commands' first lines, in order
  };
  void ran(const ServerEvent& server, bool witness, std::map<std::int64_t, PendingRuns>& pending) {
    const auto it = pending.find(server.by);
    if (it == pending.end()) return;
    std::vector<const ServerEvent*>& runs = it->second.runs;
    if (!runs.empty() && runs.back()->t == server.t && runs.back()->node == server.node) return;  // the same command
    const auto same = std::find_if(runs.begin(), runs.end(), [&](const ServerEvent* earlier) {
      return earlier->node == server.node && earlier->script == server.script && earlier->command == server.command;
    });
    if (witness && same != runs.end()) {
      const Op& op = *it->second.op;
      lost_replies_.push_back(fmt::format("process {}'s {} (sent at t={}) ran {} on node {} at t={} and again at t={}: "
                                          "the client sent it again, no reply having come",
                                          op.process, op.f, properties::format_time_us(op.t), what_ran(server), server.node,
                                          properties::format_time_us((*same)->t), properties::format_time_us(server.t)));
    }
    runs.push_back(&server);
  }

  static void after(const ServerEvent& server, KeyState& state) {
    using properties::ServerEventKind;
    switch (server.event) {
      case ServerEventKind::deleted:
      case ServerEventKind::expired:
      case ServerEventKind::evicted:
      case ServerEventKind::lost: state = KeyState{}; return;
      default: break;
    }
    if (!server.value.empty()) state.owner = server.value;
    if (server.holders && !server.holders->empty()) state.owner = server.holders->front().token;
    state.left_ms = server.expire_at_ms < 0 ? -1 : server.expire_at_ms - server.node_time_ms;
    state.set_at_us = server.t;
  }

  // What the key held at true time at_us. The TTL left is counted down from the line that set it by the true
  // time since (exact unless the node's clock jumped or drifted meanwhile, which the story tells apart): a
  // renewal that moved no deadline then shows the TTL it left, not the one the acquire set.
  std::string holder(const KeyState& state, std::int64_t at_us) const {
    if (state.owner.empty()) return "nothing";
    const auto process = token_process_.find(state.owner);
    const std::string whose = process == token_process_.end() ? "a token" : fmt::format("process {}'s token", process->second);
    const std::int64_t left_ms = state.left_ms - (at_us - state.set_at_us) / 1000;
    return fmt::format("{} ({}, {})", whose, properties::short_token(state.owner),
                       state.left_ms < 0 ? std::string("no expiry") : fmt::format("{} ms left", std::max<std::int64_t>(left_ms, 0)));
  }

  // The parser names the user's scripts by their file (the meta line's script_files); a catalogue script is
  // left as its SHA-1.
  static std::string what_ran(const ServerEvent& server) {
    if (server.script.empty()) return server.command;
    const bool sha = server.script.size() == 40 && server.script.find_first_not_of("0123456789abcdef") == std::string::npos;
    return fmt::format("{} ({})", sha ? std::string("a script") : server.script, server.command);
  }

  std::string describe_change(const ServerEvent& server, const KeyState& before, const KeyState& now) const {
    return fmt::format("{} by process {} at t={} on node {}: the key held {} before, {} after", what_ran(server), server.by,
                       properties::format_time_us(server.t), server.node, holder(before, server.t), holder(now, server.t));
  }

  std::string describe_answer(const Op& op, const Op* invoke,
                              const std::map<std::pair<std::int64_t, std::string>, KeyState>& keys) const {
    // What the key held on each node when the operation answered: a grant while another token held it, say;
    // and a TTL the operation itself set that is not the lock's (EX in whole seconds for 1500 ms): the key lives
    // shorter or longer than the validity the lock gave.
    std::vector<std::string> held;
    std::string set_ttl;
    const std::int64_t ttl_ms = history_.meta.ttl_ms;
    for (const auto& [where, state] : keys) {
      if (where.second != op.key) continue;
      held.push_back(fmt::format("{} on node {}", holder(state, op.t), where.first));
      if (state.owner == op.token && state.left_ms >= 0 && ttl_ms > 0 && invoke != nullptr &&
          state.set_at_us >= invoke->t && std::abs(state.left_ms - ttl_ms) > 1) {
        set_ttl = fmt::format(" (it set a TTL of {} ms on node {}; the lock's TTL is {} ms)", state.left_ms, where.first, ttl_ms);
      }
    }
    return fmt::format("process {}'s {} (sent at t={}) answered ok at t={}{} while the key held {}{}", op.process, op.f,
                       invoke != nullptr ? properties::format_time_us(invoke->t) : std::string("?"),
                       properties::format_time_us(op.t), op.result.empty() ? "" : " (" + op.result + ")",
                       held.empty() ? std::string("nothing") : fmt::format("{}", fmt::join(held, "; ")), set_ttl);
  }

  void clock_fault(const FaultEvent& fault) {
    if (!fault.kind) return;
    const sim::FaultKindRow& row = sim::fault_row(*fault.kind);
    const bool of_client = row.lane == sim::FaultLane::client;
    const char* whose = of_client ? "process" : "node";
    const std::int64_t who = of_client ? fault.process : fault.node;
    if (row.fields.drift) {
      clocks_.push_back(fmt::format("{} {}'s clock ran {:.1f}% {} from t={}", whose, who,
                                    static_cast<double>(std::abs(fault.drift_ppm)) / 10'000.0, fault.drift_ppm < 0 ? "slow" : "fast",
                                    properties::format_time_us(fault.t)));
    } else if (row.fields.delta) {
      clocks_.push_back(fmt::format("{} {}'s clock jumped {}{} at t={}", whose, who, fault.delta_us < 0 ? "-" : "+",
                                    properties::format_duration_us(std::abs(fault.delta_us)), properties::format_time_us(fault.t)));
    }
  }

  const properties::History& history_;
  std::map<std::string, std::int64_t> token_process_;
  std::vector<std::string> sentences_, lost_replies_, clocks_;
};

}  // namespace

std::vector<std::string> explain_find(const properties::History& history, const properties::Verdict& verdict) {
  return Story(history).tell(verdict);
}

}  // namespace lockcheck::explore
