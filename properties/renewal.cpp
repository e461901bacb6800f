// renewal: judged from facts, not from what the lock says about itself.
//  (a) A renewal after release: a renew invoke by a process after its outermost release invoke of that token
//      (F20: a watchdog that outlives its holder), or a deadline change (`expire_set`) the process caused on
//      the node after that release completed and before its next acquire — a renewal the lock did not report.
//      Not so within one TTL of the end of a failed acquire of the process or of one whose outcome stayed
//      unknown, of one that took more than one
//      attempt ("attempts"), or of the process's crash (its dead incarnation's requests land under the same
//      process id): an attempt whose reply never came may still be on its way, and landing late (a semaphore's
//      acquire adds its member to a key others keep alive, and moves its deadline) it holds at most one TTL, as
//      any doubted attempt may. Nor a change that lists the released token among a shared key's holders again
//      (a duplicated attempt of its acquire).
//  (b) A renewal that silently stops: a live, reachable holder (no fault names it, no network or node fault in
//      the run) whose renewal was on (it renewed that token) and whose validity ran out inside its section with
//      no renewal attempted since the validity was last set. A recorded `renewal_stop` names the reason (a cap).
//  (c) A renew `fail` in a run with no fault events at all.
//  (d) A renewal that set its key's deadline further ahead than the lock's TTL by a relative expiry (PEXPIRE,
//      EXPIRE, SET ... PX: on the node's own clock, from when it ran): the renew contract is "the key lives the
//      TTL from now", and a renewal that piles time up keeps a dead holder's lock past TTL + bound (a renew
//      script that extends by the TTL instead of to it). Only the key the renew names (not a bookkeeping key a
//      script also writes), and not an absolute deadline (PEXPIREAT): one computed from a clock reading is
//      shifted by the node clocks' jumps and differences, which other properties judge.
//  (e) A renewal that answered ok but moved no deadline of its key: no expire_set by the process on that key,
//      on any node, between the renew's invoke and its ok (a script that checks the owner, then runs PEXPIRE
//      ... NX on a key that has a TTL, which changes nothing, and answers 1 anyway). The holder's validity is
//      extended, the key's is not. Judged only where the nodes' lines show the holder's acquire (a key created
//      or overwritten with its token by the process): there they show every deadline the process set. A renewal
//      that removed the key's expiry instead (SET ... XX without KEEPTTL or PX) is told as such: that key never
//      expires. Not when the key, on a node that holds it, had as long left on its node's clock while the
//      renewal was under way as the validity the renewal's answer left (the clock read from the lines and clock
//      faults, node_clocks.hpp): after a node clock stepped back, a renew that sets the TTL only when longer
//      (reentrant-maxttl's) rightly has nothing to extend. Nor when the lines show no copy of the key at all (a
//      node restarted from its AOF holds keys no line names).
//  (f) A renewal that answered ok after bringing its key back: the renew created the key again with its token
//      (a `created` by the process on a lock key, between the renew's invoke and its ok), so the key had gone
//      (expired, or taken and released by another holder meanwhile), and the holder now believes it held the
//      lock all along. A renew must fail once its key is gone (a "self-healing" renew that SETs a missing key).
//      Not a late attempt of a doubted acquire of the process (the creation may be that attempt landing).
// A renewal that reports `lost` after a fault (pause, partition, clock) is the lock telling the truth (S10).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <vector>

#include "beliefs.hpp"
#include "checkers.hpp"
#include "node_clocks.hpp"
#include "describe.hpp"
#include "history_facts.hpp"

namespace lockcheck::properties {

namespace {

using ProcessToken = std::pair<std::int64_t, std::string>;

struct RenewalFacts {
  std::set<ProcessToken> renewing;                 // tokens whose holder renewed at least once
  std::map<ProcessToken, std::vector<const Op*>> renew_invokes;
  std::map<ProcessToken, std::vector<const Op*>> renew_oks;
  std::map<ProcessToken, const Op*> stops;         // the first renewal_stop per token
};

RenewalFacts renewal_facts(const History& history) {
  RenewalFacts facts;
  for (const Event& event : history.events) {
    const auto* op = std::get_if<Op>(&event);
    if (op == nullptr) continue;
    ProcessToken id{op->process, op->token};
    if (op->fn == OpFn::renew && op->type == OpType::invoke) {
      facts.renewing.insert(id);
      facts.renew_invokes[id].push_back(op);
    }
    if (op->fn == OpFn::renew && op->type == OpType::ok) facts.renew_oks[id].push_back(op);
    if (op->fn == OpFn::renewal_stop) facts.stops.emplace(id, op);
  }
  return facts;
}

// Faults that may keep a live holder from renewing in time: one naming the process, or any that slows or
// cuts the network or the nodes. A stretch with none of them had no excuse.
bool excused(const History& history, std::int64_t process, std::int64_t from_us, std::int64_t to_us) {
  for (const Event& event : history.events) {
    const auto* fault = std::get_if<FaultEvent>(&event);
    if (fault == nullptr || fault->t > to_us) continue;
    if (fault->process == process) return true;
    if (fault->process < 0 && fault->t >= from_us - 1'000'000) return true;  // network or node trouble
    if (fault->is(sim::FaultKind::loss) || fault->is(sim::FaultKind::slow_node)) return true;  // lasting until changed
  }
  return false;
}

// A deadline set relative to the node's now (PEXPIRE, EXPIRE, SET ... PX/EX, GETEX ... PX), not at an absolute
// time a clock reading gave (PEXPIREAT, EXPIREAT).
bool relative_expiry(const std::string& command) {
  const std::string name = upper_command(command);
  return name != "PEXPIREAT" && name != "EXPIREAT";
}

// What set the deadline: the user's script by its file (the reader put the name in for its SHA1), a built-in
// script by its SHA1's first 8 digits, else the command.
std::string what_ran(const ServerEvent& server) {
  if (server.script.empty()) return server.command;
  const bool sha = server.script.size() == 40 && server.script.find_first_not_of("0123456789abcdef") == std::string::npos;
  return fmt::format("{} (its {})", sha ? "script " + server.script.substr(0, 8) : server.script, server.command);
}

}  // namespace

Verdict check_renewal(const History& history) {
  Verdict verdict;
  verdict.property = "renewal";
  bool fault_free = true;
  for (const Event& event : history.events) {
    if (std::holds_alternative<FaultEvent>(event)) fault_free = false;
  }
  const RenewalFacts facts = renewal_facts(history);
  // A renewal is of a lock's own key (or one the variant declares, meta lock_keys): a fair lock's waiter moving
  // its queue's deadline (fair_acquire.lua PEXPIREs the queue keys at every poll) renews no lock, whenever its
  // poll lands.
  const std::set<std::string> keys_of_locks = lock_keys(history);
  std::map<ProcessToken, const Op*> released;  // (process, token) -> outermost release invoke
  std::map<std::int64_t, const Op*> released_by_process;  // process -> its last outermost release, completed
  std::map<std::tuple<std::int64_t, std::int64_t, std::string>, std::int64_t> depth;  // (process, thread, key) -> holds
  // process -> its threads acquiring or holding (threads sharing a lock object): the process has released
  // only when none is, since a node's facts name the process, not the thread.
  std::map<std::int64_t, std::set<std::int64_t>> active;
  std::map<std::int64_t, bool> releasing;  // process -> a release of it is in flight
  // process -> when its last acquire that failed or took more than one attempt ended, or it crashed (an attempt
  // may still land)
  std::map<std::int64_t, std::int64_t> doubted_acquire_end;
  std::map<std::tuple<std::int64_t, std::string>, std::pair<std::int64_t, std::int64_t>> created_at;  // (node, key) -> (t, by)
  // Per (process, key) its unanswered renews, each with whether the process has moved that key's deadline
  // since its invoke ((d) asks whether one is in flight, (e) what it did).
  // Per (process, token, key), the acquisitions the nodes' lines show ((e) judges only those): the nodes where
  // lines showed it written, and the commands (and scripts) that wrote it. A creation of that token on a node it
  // was never written to, by one of those commands, is its acquire's request landing late (a quorum lock granted
  // without that node, whose SET a slow node delayed), not (f).
  struct TokenWrites {
    std::set<std::int64_t> nodes;
    std::set<std::pair<std::string, std::string>> commands;  // (command, script)
  };
  std::map<std::tuple<std::int64_t, std::string, std::string>, TokenWrites> token_writes;
  const auto late_write_of_its_acquire = [&](const ServerEvent& created) {
    const auto writes = token_writes.find({created.by, created.value, created.key});
    return writes != token_writes.end() && writes->second.nodes.count(created.node) == 0 &&
           writes->second.commands.count({created.command, created.script}) > 0;
  };
  struct RenewInFlight {
    const Op* invoke = nullptr;
    bool moved_deadline = false;
    const ServerEvent* removed_deadline = nullptr;  // the process's own removal of the key's expiry meanwhile
    const ServerEvent* created_key = nullptr;       // (f) the process created the key with this renew's token
  };
  std::map<std::pair<std::int64_t, std::string>, std::vector<RenewInFlight>> renew_moves;
  // The change lists the released token among the key's holders again: an attempt of that token's acquire,
  // duplicated and landing late, put it back (it holds at most one TTL); a renewal only extends a listed token.
  const auto relists = [](const ServerEvent& server, const std::string& token) {
    return server.holders && std::any_of(server.holders->begin(), server.holders->end(),
                                         [&](const Holder& holder) { return holder.token == token; });
  };
  const auto late_attempt_of_a_doubted_acquire = [&](std::int64_t process, std::int64_t t_us) {
    const auto doubted = doubted_acquire_end.find(process);
    return doubted != doubted_acquire_end.end() && t_us - doubted->second <= history.meta.ttl_ms * 1000;
  };
  std::int64_t renewals = 0;
  std::int64_t violations = 0;
  auto flag = [&](std::vector<std::int64_t> witnesses, std::string cause) {
    if (violations++ > 0) return;
    verdict.witnesses = std::move(witnesses);
    verdict.cause = std::move(cause);
  };
  // Each node's copy of a lock key, whose value and node-clock deadline (-1: none), and the nodes' clocks: (e)
  // asks whether a renewal that moved no deadline had anything to extend. Where the key, on some node's clock,
  // already had as long left while the renewal was under way as the validity its answer left, a renew that sets
  // the TTL only when longer rightly changes nothing (a node clock stepped back). Whether that node clock then runs
  // fast enough to expire the key inside the validity is the mutual-exclusion properties' to judge.
  struct KeyCopy {
    std::string value;
    std::int64_t expire_at_ms = -1;
  };
  NodeRoles<KeyCopy>::States key_copies;  // a promoted node holds its old master's copies
  NodeRoles<KeyCopy> roles;
  NodeClocks clocks;
  // Whether the renewal may rightly have changed nothing: some node's copy of the key had the validity left, or
  // the lines show no copy of it anywhere (a node restarted from its AOF holds what no line says: nothing to judge).
  const auto nothing_to_extend = [&](const Op& invoke, const Op& ok) {
    // The validity left when the answer came, as the holder counts it on its own clock (a client clock running
    // slow stretches it in true time, which the mutual-exclusion properties judge, a known limit), and counted
    // from the answer (a renewal retried after a partition counts its validity from the attempt that ran).
    const bool local = ok.valid_until_local_us && ok.local_us;
    if (!local && !ok.valid_until_us) return false;
    const double validity_ms =
        static_cast<double>(local ? *ok.valid_until_local_us - *ok.local_us : *ok.valid_until_us - ok.t) / 1000.0;
    bool copy_shown = false;
    for (const auto& [place, copy] : key_copies) {
      if (place.second != ok.key || copy.value != ok.token || copy.expire_at_ms < 0) continue;
      copy_shown = true;
      const std::optional<double> node_ms = clocks.least_read_ms(place.first, invoke.t, ok.t);  // when it ran
      if (node_ms && static_cast<double>(copy.expire_at_ms) - *node_ms >= validity_ms) return true;
    }
    return !copy_shown;
  };
  for (const Event& event : history.events) {
    if (const auto* fault = std::get_if<FaultEvent>(&event)) {
      clocks.on(*fault);
      roles.on_fault(*fault, key_copies);
    }
    // Only lock keys' copies: (e) asks about the key a renewal names (a reentrant lock's request keys are many).
    if (const auto* server = std::get_if<ServerEvent>(&event); server && !server->replicated) {
      clocks.on(*server);
      if (keys_of_locks.count(server->key) > 0) {
        const std::pair<std::int64_t, std::string> place{server->node, server->key};
        switch (server->event) {
          case ServerEventKind::lost: roles.on_lost(*server, key_copies); [[fallthrough]];
          case ServerEventKind::deleted:
          case ServerEventKind::expired:
          case ServerEventKind::evicted: key_copies.erase(place); break;
          default: {
            KeyCopy& copy = key_copies[place];
            if (!server->value.empty() && copy.value != server->value) copy.value = server->value;
            copy.expire_at_ms = server->expire_at_ms;
          }
        }
      }
    }
    if (const auto* fault = std::get_if<FaultEvent>(&event); fault && fault->is(sim::FaultKind::crash)) {
      for (auto& [holder, holds] : depth) {
        if (std::get<0>(holder) == fault->process) holds = 0;
      }
      released_by_process.erase(fault->process);
      active.erase(fault->process);
      // What the dead incarnation had sent may still land, under the same process id.
      doubted_acquire_end[fault->process] = fault->t;
      std::erase_if(renew_moves, [&](const auto& entry) { return entry.first.first == fault->process; });
    }
    if (const auto* server = std::get_if<ServerEvent>(&event)) {
      // A deadline set by the command that created the key is an acquire's (a SET ... PX that a slow node
      // delayed past the release re-creates the key), not a renewal: the renewal property does not judge it.
      const std::tuple<std::int64_t, std::string> place{server->node, server->key};
      if (server->event == ServerEventKind::created) created_at[place] = {server->t, server->by};
      const auto created = created_at.find(place);
      const bool set_by_creation = created != created_at.end() && created->second == std::pair{server->t, server->by};
      if (!server->replicated && server->by >= 0) {
        if (server->event == ServerEventKind::expire_set) {
          for (RenewInFlight& renew : renew_moves[{server->by, server->key}]) renew.moved_deadline = true;
        }
        if (server->event == ServerEventKind::created && keys_of_locks.count(server->key) > 0 &&
            !late_attempt_of_a_doubted_acquire(server->by, server->t) && !late_write_of_its_acquire(*server)) {
          for (RenewInFlight& renew : renew_moves[{server->by, server->key}]) {
            if (renew.created_key == nullptr && renew.invoke->token == server->value) renew.created_key = server;
          }
        }
        if ((server->event == ServerEventKind::created || server->event == ServerEventKind::overwritten) &&
            !server->value.empty()) {
          TokenWrites& writes = token_writes[{server->by, server->value, server->key}];
          writes.nodes.insert(server->node);
          writes.commands.insert({server->command, server->script});
        }
        if (server->event == ServerEventKind::expire_removed) {
          for (RenewInFlight& renew : renew_moves[{server->by, server->key}]) {
            if (renew.removed_deadline == nullptr) renew.removed_deadline = server;
          }
        }
      }
      // (a) from the node's facts: a deadline change by a process that had released and not acquired since.
      auto it = released_by_process.find(server->by);
      if (server->event == ServerEventKind::expire_set && !set_by_creation && !server->replicated && it != released_by_process.end() &&
          keys_of_locks.count(server->key) > 0 &&
          !releasing[server->by] && (server->value.empty() || server->value == it->second->token) &&
          !late_attempt_of_a_doubted_acquire(server->by, server->t) && !relists(*server, it->second->token)) {
        flag({it->second->i, server->i},
             fmt::format("process {} changed the deadline of '{}' on node {} at t={} after releasing it at t={} (a "
                         "renewal that outlived the lock)",
                         server->by, server->key, server->node, format_time_us(server->t),
                         format_time_us(it->second->t)));
      }
      // (d) a renewal that set the deadline past the TTL from now.
      const std::int64_t ahead_ms = server->expire_at_ms - server->node_time_ms;
      if (server->event == ServerEventKind::expire_set && !server->replicated && server->expire_at_ms >= 0 &&
          !renew_moves[{server->by, server->key}].empty() && relative_expiry(server->command) &&
          history.meta.ttl_ms > 0 && ahead_ms > history.meta.ttl_ms) {
        flag({server->i},
             fmt::format("process {}'s renewal set the deadline of '{}' on node {} at t={} {} ms ahead, more than "
                         "the lock's TTL ({} ms): {} extended the key by more than the TTL, so a holder that dies "
                         "after renewing keeps the lock past TTL + bound",
                         server->by, server->key, server->node, format_time_us(server->t), ahead_ms,
                         history.meta.ttl_ms, what_ran(*server)));
      }
      continue;
    }
    const auto* op = std::get_if<Op>(&event);
    if (op == nullptr) continue;
    ProcessToken id{op->process, op->token};
    if (op->fn == OpFn::renew) {
      // The answer settles the renew of its token in flight (threads of a process renew their own tokens), or
      // else the oldest one of that key.
      std::vector<RenewInFlight>& pending = renew_moves[{op->process, op->key}];
      if (op->type == OpType::invoke) {
        pending.push_back({op});
      } else if (!pending.empty()) {
        auto it = std::find_if(pending.begin(), pending.end(), [&](const RenewInFlight& renew) { return renew.invoke->token == op->token; });
        const bool same_token = it != pending.end();
        if (!same_token) it = pending.begin();
        const RenewInFlight renew = *it;
        pending.erase(it);
        // What (f) and (e) say first; formatted only for a renewal they flag.
        const auto answered_ok = [&] {
          return fmt::format("process {}'s renewal of '{}' (token {}), sent at t={}, answered ok at t={}{}", op->process,
                             op->key, short_token(op->token), format_time_us(renew.invoke->t), format_time_us(op->t),
                             op->valid_until_us ? fmt::format(" (validity to t={})", format_time_us(*op->valid_until_us)) : "");
        };
        // (f) a renew ok that created its key again.
        if (same_token && op->type == OpType::ok && renew.created_key != nullptr) {
          const ServerEvent& created = *renew.created_key;
          flag({renew.invoke->i, created.i, op->i},
               fmt::format("{}, but the key was gone when it ran: it created '{}' again on node {} at t={} ({}). A renew "
                           "that brings a lapsed lock back tells its holder it held the lock all along, though another "
                           "client could take and release it in the gap; a renew must fail once its key is gone",
                           answered_ok(), op->key, created.node, format_time_us(created.t), what_ran(created)));
        }
        // (e) a renew ok that moved no deadline of its key.
        if (same_token && op->type == OpType::ok && !renew.moved_deadline && token_writes.count({op->process, op->token, op->key}) > 0) {
          const std::string answered = answered_ok();
          if (const ServerEvent* removed = renew.removed_deadline) {
            flag({renew.invoke->i, removed->i, op->i},
                 fmt::format("{}, but it removed the deadline of '{}' on node {} at t={} ({}) and set none: the key no "
                             "longer expires, so a holder that dies after this renewal keeps the lock forever",
                             answered, op->key, removed->node, format_time_us(removed->t), what_ran(*removed)));
          } else if (!nothing_to_extend(*renew.invoke, *op)) {
            flag({renew.invoke->i, op->i},
                 fmt::format("{} but moved no deadline of '{}': no deadline change by process {} reached any node in "
                             "between, so the key still expires when it would have, inside the validity the holder now "
                             "believes in (a renew that answers yes without extending the key)",
                             answered, op->key, op->process));
          }
        }
      }
    }
    std::int64_t& holds = depth[{op->process, op->thread, op->key}];
    if (op->fn == OpFn::acquire && op->type == OpType::invoke) {
      released_by_process.erase(op->process);
      active[op->process].insert(op->thread);
    }
    if (op->fn == OpFn::acquire && op->type == OpType::fail && holds == 0) active[op->process].erase(op->thread);
    if (op->fn == OpFn::acquire &&
        (op->type == OpType::fail || op->type == OpType::info || (op->type == OpType::ok && op->attempts > 1))) {
      doubted_acquire_end[op->process] = op->t;
    }
    if (op->fn == OpFn::acquire && op->type == OpType::ok) {
      ++holds;
      released.erase(id);
    }
    if (op->fn == OpFn::release) releasing[op->process] = op->type == OpType::invoke;
    // Only the outermost release ends the lock: renewing after an inner (reentrant) release is right.
    if (op->fn == OpFn::release && op->type == OpType::invoke && holds > 0 && --holds == 0) {
      released[id] = op;
      std::set<std::int64_t>& threads = active[op->process];
      threads.erase(op->thread);
      if (threads.empty()) released_by_process[op->process] = op;
    }
    if (op->fn != OpFn::renew) continue;
    if (op->type == OpType::invoke) {
      ++renewals;
      auto it = released.find(id);
      if (it != released.end()) {
        flag({it->second->i, op->i},
             fmt::format("process {} renewed '{}' (token {}) at t={} after releasing it at t={}", op->process,
                         op->key, short_token(op->token), format_time_us(op->t), format_time_us(it->second->t)));
      }
    } else if (op->type == OpType::fail && fault_free) {
      flag({op->i}, fmt::format("process {} lost '{}' (token {}) at t={} on renewal in a run without faults",
                                op->process, op->key, short_token(op->token), format_time_us(op->t)));
    }
  }
  // (b) a live holder's validity ran out inside its section while renewal was on, with no attempt to renew.
  for (const Belief& belief : belief_intervals(history)) {
    ProcessToken id{belief.process, belief.token};
    if (belief.end_reason != "valid_until" && belief.end_reason != "acted") continue;
    if (facts.renewing.count(id) == 0) continue;
    std::int64_t ran_out_us = belief.valid_until_us;
    if (excused(history, belief.process, belief.start_us, ran_out_us)) continue;
    // The validity that ran out was set by the last renew ok before it (or the acquire): a renew invoke after
    // that moment is an attempt to extend it in time.
    std::int64_t set_us = belief.start_us;
    if (auto oks = facts.renew_oks.find(id); oks != facts.renew_oks.end()) {
      for (const Op* ok : oks->second) {
        if (ok->t <= ran_out_us) set_us = std::max(set_us, ok->t);
      }
    }
    bool attempted = false;
    for (const Op* invoke : facts.renew_invokes.at(id)) {
      if (invoke->t >= set_us && invoke->t <= ran_out_us) attempted = true;
    }
    if (attempted) continue;
    auto stop = facts.stops.find(id);
    std::string why = stop != facts.stops.end()
                          ? fmt::format("its renewal stopped at t={} ({})", format_time_us(stop->second->t),
                                        stop->second->detail.empty() ? "no reason given" : stop->second->detail)
                          : "its renewal stopped without a word";
    std::vector<std::int64_t> witnesses{belief.start_i};
    if (stop != facts.stops.end()) witnesses.push_back(stop->second->i);
    flag(witnesses, fmt::format("{} held '{}' (token {}) from t={}, live and reachable, but its validity ran "
                                "out at t={} inside its section: {}, and no renewal was attempted in time",
                                holder_name(belief), belief.key, short_token(belief.token), format_time_us(belief.start_us),
                                format_time_us(ran_out_us), why));
  }
  conclude(verdict, violations, renewals,
           fmt::format("{} renewal violation(s) in {} renewal(s)", violations, renewals),
           "not exercised (no renewals)",
           fmt::format("{} renewal(s), none after a release, no live holder's lease left to run out{}", renewals,
                       fault_free ? ", none lost in this fault-free run" : ""));
  return verdict;
}

}  // namespace lockcheck::properties
