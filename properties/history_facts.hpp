#pragma once
// Facts several checkers derive from a history the same way: which keys are locks, whose token is whose,
// what a process was doing when a server event happened.
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "history.hpp"
#include "lockcheck/assert.hpp"

namespace lockcheck::properties {

inline constexpr std::int64_t kForever = std::numeric_limits<std::int64_t>::max();

// Keys named by client ops, and the keys a variant declared it keeps for them (meta lock_keys). Server events
// on other keys (a fencing counter, say) are not locks.
std::set<std::string> lock_keys(const History& history);

// Who one node's copy of a lock key names, as its server lines tell: a creation or an overwrite sets it, a
// freeing (deleted, expired, evicted, lost) clears it, any other line keeps it unless it lists the holders (a
// hash's count changed, a TTL set).
struct KeyOwner {
  std::string value;            // the string value, or a single-owner hash's field
  std::vector<Holder> holders;  // a hash that lists them
  // Whether `token` is an owner: the value, or one of the holders.
  bool names(const std::string& token) const;
  void apply(const ServerEvent& event);
};

// Token -> the process that acquired it (acquire ok). Used when a server event does not say `by`.
std::map<std::string, std::int64_t> token_owners(const History& history);

// "process 3's release (EVALSHA)": names the actor of a server event from the op it had in flight.
class InFlight {
 public:
  void observe(const Op& op);  // call for every op in order
  // Names what `process` was doing when a command of its reached the server. A process may have several
  // operations in flight (a watchdog renews while its holder releases): `likely_f` picks among them.
  std::string describe(std::int64_t process, const std::string& command, const std::string& script = "",
                       const std::string& likely_f = "") const;
  // True while `process` (any of its threads) is acquiring, holding or releasing in read (shared) mode.
  bool reading(std::int64_t process) const;

 private:
  std::map<std::int64_t, std::set<std::string>> pending_f_;  // process -> fs of its invokes not completed yet
  std::set<std::pair<std::int64_t, std::int64_t>> reading_;  // (process, thread) in read mode
};

// Nodes back from an AOF written every second: the `lost` line at the restart's instant reports the copy at the
// crash, and the older copy the node came back with may still hold the key, which no line says. Fed every fault;
// asked of every `lost` line (released_holds and the fairness checker's free stretches read it alike).
class AofRestarts {
 public:
  // How old the copy a node comes back with may be, before its crash: AOF everysec fsyncs every second, and Redis
  // postpones an fsync while the last one still runs, up to two seconds.
  static constexpr std::int64_t kCopyAgeUs = 2'000'000;

  // Whether `fault` is such a restart (and remembers it).
  bool on_fault(const FaultEvent& fault) {
    if (!fault.is(sim::FaultKind::node_restart) || fault.mode != "aof_everysec") return false;
    at_[fault.node] = fault.t;
    return true;
  }
  bool lost_at_a_restart(const ServerEvent& server) const {
    const auto restarted = at_.find(server.node);
    return server.event == ServerEventKind::lost && restarted != at_.end() && restarted->second == server.t;
  }

 private:
  std::map<std::int64_t, std::int64_t> at_;  // node -> when it last came back from its AOF
};

// The simulator reports what a promoted node lacked as `lost` lines on its old master, at the failover's time:
// which node such a line is about. Fed every failover; asked of every `lost` line.
class FailoverLosses {
 public:
  void on_failover(const FaultEvent& fault) { latest_[fault.from] = {fault.node, fault.t}; }
  // The promoted node a `lost` line stands for; nullopt for a loss of the node's own.
  std::optional<std::int64_t> promoted_for(const ServerEvent& lost) const {
    const auto it = latest_.find(lost.node);
    if (it == latest_.end() || it->second.second != lost.t) return std::nullopt;
    return it->second.first;
  }

 private:
  std::map<std::int64_t, std::pair<std::int64_t, std::int64_t>> latest_;  // old master -> (promoted, failover t)
};

// Replicas record no key events (sim/README.md), so what a node's copy of a key holds follows the roles: a
// promoted node holds what its old master held (what it lacked comes as the old master's `lost` lines at the
// failover's time), and a node that rejoins as a replica holds nothing of its own any more (its new master's
// data, which a failover to it copies). `State` is what a reader keeps per (node, key).
template <typename State>
class NodeRoles {
 public:
  using States = std::map<std::pair<std::int64_t, std::string>, State>;  // (node, key) -> its copy's state

  void on_fault(const FaultEvent& fault, States& states) {
    if (fault.is(sim::FaultFollowUp::rejoin)) erase_node(fault.node, states);
    if (!fault.is(sim::FaultKind::failover)) return;
    LOCKCHECK_ASSERT(fault.from >= 0 && fault.node >= 0);  // the history reader refuses a failover without them
    erase_node(fault.node, states);
    States copied;
    for (const auto& [id, state] : states) {
      if (id.first == fault.from) copied[{fault.node, id.second}] = state;
    }
    states.merge(copied);
    losses_.on_failover(fault);
  }
  // A `lost` line on an old master at its failover's time: the promoted node never had that copy.
  void on_lost(const ServerEvent& event, States& states) const {
    if (const auto promoted = losses_.promoted_for(event)) states.erase({*promoted, event.key});
  }

 private:
  static void erase_node(std::int64_t node, States& states) {
    std::erase_if(states, [node](const auto& entry) { return entry.first.first == node; });
  }
  FailoverLosses losses_;
};

// Node clock faults on `node` in (from_us, to_us], in words ("node 0's clock jumped +2000 ms at t=1.5s"), or "".
std::string node_clock_faults(const History& history, std::int64_t node, std::int64_t from_us, std::int64_t to_us);

// Process pauses and client clock faults of `process` in [from_us, to_us], in words, or "".
std::string process_faults(const History& history, std::int64_t process, std::int64_t from_us, std::int64_t to_us);

// A server line's command as Redis names it whatever its case ("hincrby" from a script is HINCRBY).
std::string upper_command(std::string command);

// The history's fault lines in order, and when the one at `at` ends: the first later line that ends it
// (FaultEvent::ends: a heal its partition, the next loss a loss), else kForever.
std::vector<const FaultEvent*> fault_lines(const History& history);
std::int64_t fault_ended_at(const std::vector<const FaultEvent*>& faults, std::size_t at);

}  // namespace lockcheck::properties
