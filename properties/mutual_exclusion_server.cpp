// mutual_exclusion_server: a node hands a lock to a second owner while the first owner's instance is still
// entitled to it. Entitlement is the instance's TTL as the node granted it (deadline minus node time at the
// last create / expire_set), measured in TRUE time from that moment. So a node clock that jumps forward or
// runs fast (F7, F9, F12), a restart or failover that loses the key (F5, F6, F8, F10), eviction, an
// overwrite (F15, F19 SET variant) or a non-owner's delete (F2, F3, F18, F23) count once a different owner
// then takes the key inside that entitlement. A clock that steps back only makes the key live longer (S7):
// never flagged. Expiry on time is the lock working (S1, F4's server level holds).
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <optional>

#include "checkers.hpp"
#include "semaphore_history.hpp"
#include "describe.hpp"
#include "history_facts.hpp"
#include "beliefs.hpp"
#include "master_grants.hpp"
#include "master_roles.hpp"
#include "quorum_holds.hpp"
#include "server_holders.hpp"
#include "shared_key_readers.hpp"

namespace lockcheck::properties {

namespace {

struct Instance {
  std::string token;
  std::int64_t owner = -1;      // process, -1 when neither `by` nor the token says
  std::int64_t created_i = 0;   // line that created this instance (first witness)
  std::int64_t created_t_us = 0;
  std::int64_t set_t_us = 0;    // true time of the last create / expire_set
  std::int64_t ttl_us = 0;      // node-clock duration granted at that moment
  // True time. While the key has no deadline on the node (`without_deadline`), the owner's own lease: an
  // instance nobody expires is entitled only as long as its owner believes it holds it, never forever.
  std::int64_t entitled_until_us = kForever;
  bool without_deadline = false;
  std::string shortened;        // set when a later expire_set lowered the deadline (F17), for the cause
  std::int64_t failover_i = -1;  // the failover that carried this instance to a promoted node
  std::string failover_cause;
  bool shared = false;  // created by a reader: other readers join, extend and finally delete it legitimately
};

// An instance that vanished while still entitled: if another owner takes the key before `until`, two owners.
struct Ghost {
  Instance instance;
  std::int64_t removed_i = 0;
  std::string cause;
  bool by_a_fault = false;  // the node lost it (early expiry, restart, failover, eviction), no process's command
  // For an early expiry: look up the node's clock faults in (set, expiry] only if this ghost is reported,
  // so a run full of early expiries stays linear.
  std::int64_t clock_node = -1;
  std::int64_t clock_from_us = 0;
  std::int64_t clock_to_us = 0;
};

struct KeyState {
  std::optional<Instance> current;
  std::optional<Ghost> ghost;
};

bool same_owner(const Instance& a, std::int64_t owner, const std::string& token) {
  if (a.owner >= 0 && owner >= 0) return a.owner == owner;
  return !a.token.empty() && a.token == token;
}

class Checker {
 public:
  explicit Checker(const History& history)
      : history_(history),
        keys_(lock_keys(history)),
        owners_(token_owners(history)),
        leases_(history),
        readers_(history),
        holder_keys_(
            history, owners_, in_flight_,
            [this](std::vector<std::int64_t> witnesses, const std::function<std::string()>& cause) {
              flag(std::move(witnesses), cause);
            },
            [this](const ServerEvent& event, const std::string& who, std::int64_t set_t_us, std::int64_t ttl_us) {
              return removal_cause(event, who, set_t_us, ttl_us);
            }) {}

  Verdict run() {
    for (const Event& event : history_.events) {
      if (const auto* op = std::get_if<Op>(&event)) in_flight_.observe(*op);
      if (const auto* fault = std::get_if<FaultEvent>(&event)) on_fault(*fault);
      if (const auto* server = std::get_if<ServerEvent>(&event)) {
        if (keys_.count(server->key) != 0) on_server(*server);
      }
    }
    Verdict verdict;
    verdict.property = "mutual_exclusion_server";
    if (history_.meta.quorum > 0) return quorum_verdict();
    if (violations_ == 0) {
      verdict.outcome = seen_lock_event_ ? Outcome::holds : Outcome::unknown;
      verdict.summary = seen_lock_event_ ? "no node handed a lock to a second owner while the first was entitled"
                                         : "not exercised (no server events on lock keys)";
      return verdict;
    }
    verdict.outcome = Outcome::violated;
    verdict.summary = fmt::format("{} time(s) a node gave a lock to a second owner while the first was entitled",
                                  violations_);
    verdict.witnesses = first_witnesses_;
    verdict.cause = first_cause_;
    if (first_by_a_fault_) verdict.tags.push_back(kTakenByAFault);
    return verdict;
  }

 private:
  // A quorum lock is one lock over several nodes: judged by who held a majority when; the per-node double
  // grants are kept as a diagnostic (a reader still sees them), not as the verdict.
  Verdict quorum_verdict() {
    for (auto& [node_key, state] : states_) {
      if (state.current) close_hold(node_key.first, node_key.second, *state.current, kForever, false);
    }
    const QuorumFinding finding = two_majorities(holds_, history_.meta.quorum, history_.meta.nodes);
    Verdict verdict;
    verdict.property = "mutual_exclusion_server";
    if (violations_ > 0) {
      verdict.diagnostics.push_back(Diagnostic{
          "per_node_double_grant", violations_, first_witnesses_,
          fmt::format("{} time(s) one node gave the key to a second owner while the first was entitled there "
                      "(not gating for a quorum lock); first: {}",
                      violations_, first_cause_)});
    }
    const std::string per_node =
        violations_ > 0 ? fmt::format("; {} per-node double grant(s) that gave no one a second majority", violations_)
                        : std::string();
    if (finding.count > 0) {
      verdict.outcome = Outcome::violated;
      verdict.summary = fmt::format("{} time(s) two processes each held a majority ({} of {} masters) at once",
                                    finding.count, history_.meta.quorum, history_.meta.nodes);
      verdict.witnesses = finding.witnesses;
      verdict.cause = finding.cause;
    } else if (seen_lock_event_) {
      verdict.outcome = Outcome::holds;
      verdict.summary = fmt::format("no two processes held a majority ({} of {} masters) at once{}",
                                    history_.meta.quorum, history_.meta.nodes, per_node);
    } else {
      verdict.summary = "not exercised (no server events on lock keys)";
    }
    return verdict;
  }

  // An instance leaves a node: until when its owner was entitled to it. Released by its owner: then. Gone
  // any other way: its entitlement runs on (the owner counts on it), never past the run.
  void close_hold(std::int64_t node, const std::string& key, const Instance& held, std::int64_t released_us,
                  bool by_owner) {
    if (history_.meta.quorum == 0 || held.failover_i >= 0) return;
    std::int64_t end = by_owner ? released_us : held.entitled_until_us;
    if (!by_owner && end != kForever) end -= entitlement_tolerance_us(held.ttl_us);
    end = std::min(end, history_.end_us());
    holds_.push_back(NodeHold{node, key, held.owner, held.token, held.created_t_us, end, held.created_i});
  }

  std::int64_t owner_of(const ServerEvent& event) const {
    if (event.by >= 0) return event.by;
    auto it = owners_.find(event.value);
    return it == owners_.end() ? -1 : it->second;
  }

  // `by_a_fault`: the first owner's instance left the node through a fault, not a process's command (kTakenByAFault).
  void flag(std::vector<std::int64_t> witnesses, const std::function<std::string()>& cause, bool by_a_fault = false) {
    if (!witnesses.empty()) flagged_pairs_.insert({witnesses.front(), witnesses.back()});
    if (violations_++ == 0) {
      first_witnesses_ = std::move(witnesses);
      first_cause_ = cause();
      first_by_a_fault_ = by_a_fault;
    }
  }

  void on_fault(const FaultEvent& fault) {
    roles_.on_fault(fault);
    if (fault.is(sim::FaultKind::split_brain)) cut_off_since_[fault.node] = fault.t;
    if (fault.is(sim::FaultKind::heal)) cut_off_since_.clear();
    if (fault.is(sim::FaultKind::failover)) {
      on_failover(fault);
      holder_keys_.on_failover(fault);
    }
    if (fault.node >= 0) last_node_fault_[fault.node] = fault;
  }

  // Replicas record no key events of their own, so at a failover the promoted node is taken to hold what
  // the old master held. If it did not, the history shows it: the old master's copy is reported `lost`, or
  // another owner simply `created` the key on the promoted node while that instance was still entitled.
  void on_failover(const FaultEvent& fault) {
    losses_.on_failover(fault);
    for (const auto& [node_key, state] : states_) {
      if (node_key.first != fault.from) continue;
      KeyState& promoted = states_[{fault.node, node_key.second}];
      promoted.ghost.reset();
      if (const auto cut = cut_off_since_.find(fault.from);
          cut != cut_off_since_.end() && state.current && state.current->created_t_us >= cut->second) {
        // Split-brain: the old master granted this instance after it was cut off from its replicas, so the
        // promoted node never had it, while the old master goes on holding it for its owner.
        Instance held = *state.current;
        held.failover_i = fault.i;
        promoted.current.reset();
        promoted.ghost = Ghost{held, fault.i,
                               fmt::format("split-brain: node {} was promoted at t={} while old master node {}, cut off "
                                           "since t={}, still held {}'s instance (token {}) that never replicated",
                                           fault.node, format_time_us(fault.t), fault.from,
                                           format_time_us(cut->second), owner_name(held.owner), short_token(held.token)),
                               true, -1, 0, 0};
        continue;
      }
      promoted.current = state.current;
      if (promoted.current) {
        promoted.current->failover_i = fault.i;
        promoted.current->failover_cause =
            fmt::format("lost in failover: node {} was promoted at t={} without {}'s instance (token {}) that old "
                        "master node {} held",
                        fault.node, format_time_us(fault.t), owner_name(state.current->owner),
                        short_token(state.current->token), fault.from);
      }
    }
  }

  void on_server(const ServerEvent& event) {
    seen_lock_event_ = true;
    if (holder_keys_.tracks(event)) {  // a read-write hash listing its holders: each holder is an instance
      holder_keys_.on_server(event);
      return;
    }
    track_freed_readers(event);
    KeyState& state = states_[{event.node, event.key}];
    switch (event.event) {
      case ServerEventKind::created:
      case ServerEventKind::overwritten: on_set(event, state); break;
      case ServerEventKind::expire_set: on_expire_set(event, state); break;
      case ServerEventKind::expire_removed:
        if (state.current) {
          lose_deadline(*state.current, event);
          entitle(event, *state.current);
        }
        break;
      case ServerEventKind::modified: on_modified(event, state); break;
      case ServerEventKind::deleted:
      case ServerEventKind::expired:
      case ServerEventKind::evicted:
      case ServerEventKind::lost: on_removed(event, state); break;
    }
  }

  void on_set(const ServerEvent& event, KeyState& state) {
    std::int64_t owner = owner_of(event);
    if (found_copy_displaces_nothing(event, state, owner)) return;
    // A fellow reader rewriting a readers' key (INCR of rw-two-keys' count) joins it; the instance carries on.
    const bool reader_joins = event.event == ServerEventKind::overwritten && state.current && state.current->shared &&
                              in_flight_.reading(event.by);
    // Replicated writes follow a master's decision that the master's own events already judged.
    if (!event.replicated && !reader_joins) {
      if (event.event == ServerEventKind::overwritten && state.current &&
          !same_owner(*state.current, owner, event.value) && state.current->entitled_until_us > event.t) {
        flag_second_owner(*state.current, event, "overwritten", "");
      }
      // A create while an instance is still on record: it vanished without an event (a failover to a
      // replica that never had it, F5), and the node handed the key to someone else.
      if (event.event == ServerEventKind::created && state.current &&
          !same_owner(*state.current, owner, event.value) && entitled_at(*state.current, event.t)) {
        const Instance& held = *state.current;
        std::vector<std::int64_t> witnesses{held.created_i};
        if (held.failover_i >= 0) witnesses.push_back(held.failover_i);
        witnesses.push_back(event.i);
        flag(witnesses, [&] {
          const std::string how = vanished_cause(held, event.node);
          return fmt::format("{}; then {} took the key on node {} at t={}, {} before {}'s TTL ran out in true "
                             "time",
                             how, owner_name(owner), event.node, format_time_us(event.t),
                             format_duration_us(held.entitled_until_us - event.t), owner_name(held.owner));
        }, held.failover_i >= 0);
      }
      flag_ghost_takeover(event, state, owner);
    }
    state.ghost.reset();
    bool keeps_instance = reader_joins || (event.event == ServerEventKind::overwritten && state.current &&
                                           same_owner(*state.current, owner, event.value));
    if (state.current && !keeps_instance && !event.replicated) {
      close_hold(event.node, event.key, *state.current, event.t, false);
    }
    Instance next;
    if (keeps_instance) next = *state.current;  // the owner rewrote its own lock: entitlement carries on
    if (!keeps_instance) {
      next.created_i = event.i;
      next.created_t_us = event.t;
      next.shared = in_flight_.reading(event.by);
    }
    next.token = event.value;
    next.owner = owner;
    if (event.expire_at_ms >= 0) grant(next, event);
    else lose_deadline(next, event);
    state.current = std::move(next);
    const Instance& placed = *state.current;
    const bool new_grant = !keeps_instance && !reader_joins && !event.replicated && event.by >= 0 && owner >= 0 &&
                           !placed.shared && history_.meta.quorum == 0;
    if (new_grant) note_master_grant(event, placed);
    if (keeps_instance) entitle(event, placed);
  }

  // A client's grant: judged against grants by a rival master (master_grants.hpp), then kept for later ones.
  void note_master_grant(const ServerEvent& event, const Instance& granted) {
    if (auto overlap = master_grants_.overlapped(event, granted.owner);
        overlap && flagged_pairs_.count({overlap->earlier_i, event.i}) == 0) {
      flag(overlap->witnesses, [&] { return overlap->cause; }, true);  // two masters at once: a failover or a split brain
    }
    master_grants_.add(MasterGrants::Grant{event.node, event.key, granted.owner, granted.token, granted.created_i,
                                           event.t, granted.entitled_until_us,
                                           entitlement_tolerance_us(granted.ttl_us), roles_.rivals(event.node),
                                           {}, roles_.describe(event.node)});
  }

  void entitle(const ServerEvent& event, const Instance& instance) {
    if (event.replicated) return;
    master_grants_.entitle(instance.created_i, event.node, instance.entitled_until_us,
                           entitlement_tolerance_us(instance.ttl_us));
  }

  // Why an entitled instance is no longer on `node`'s record when no event removed it.
  static std::string vanished_cause(const Instance& held, std::int64_t node) {
    if (held.failover_i >= 0) return held.failover_cause;
    return fmt::format("{}'s lock instance (token {}) vanished from node {} without a recorded event",
                       owner_name(held.owner), short_token(held.token), node);
  }

  bool entitled_at(const Instance& instance, std::int64_t t_us) const {
    return instance.entitled_until_us == kForever ||
           t_us < instance.entitled_until_us - entitlement_tolerance_us(instance.ttl_us);
  }

  // A copy found on a node that no command of the run wrote there (`created` with no client: the real
  // backend's observer starting on a promoted replica that kept a released instance whose DEL never
  // replicated, or on a node that replayed an older write from its AOF). No client was granted it, so it
  // is no second owner: an entitled instance of another owner on record stays on record as gone (a ghost),
  // and whoever takes the key inside that entitlement is the second owner. The copy itself is not tracked.
  bool found_copy_displaces_nothing(const ServerEvent& event, KeyState& state, std::int64_t owner) {
    if (event.by >= 0 || event.replicated || event.event != ServerEventKind::created) return false;
    if (state.current && !same_owner(*state.current, owner, event.value) && entitled_at(*state.current, event.t)) {
      Instance held = *state.current;
      state.current.reset();
      close_hold(event.node, event.key, held, event.t, false);
      const std::int64_t removed_i = held.failover_i >= 0 ? held.failover_i : event.i;
      state.ghost = Ghost{held, removed_i, vanished_cause(held, event.node), held.failover_i >= 0, -1, 0, 0};
      return true;
    }
    return state.ghost && !same_owner(state.ghost->instance, owner, event.value) &&
           entitled_at(state.ghost->instance, event.t);
  }

  // The key vanished from the node while `state.ghost` was still entitled; another owner now has it.
  void flag_ghost_takeover(const ServerEvent& event, const KeyState& state, std::int64_t owner) {
    if (!state.ghost || same_owner(state.ghost->instance, owner, event.value)) return;
    const Ghost& ghost = *state.ghost;
    std::int64_t until = ghost.instance.entitled_until_us;
    if (until != kForever && event.t < until - entitlement_tolerance_us(ghost.instance.ttl_us)) {
      flag({ghost.instance.created_i, ghost.removed_i, event.i}, [&] {
        return fmt::format("{}; then {} took the key on node {} at t={}, {} before {}'s TTL ran out in true "
                           "time (t={})",
                           full_cause(ghost), owner_name(owner), event.node, format_time_us(event.t),
                           format_duration_us(until - event.t), owner_name(ghost.instance.owner),
                           format_time_us(until));
      }, ghost.by_a_fault);
    } else if (until == kForever) {
      flag({ghost.instance.created_i, ghost.removed_i, event.i}, [&] {
        return fmt::format("{}; then {} took the key on node {} at t={} (the instance had no expiry)",
                           full_cause(ghost), owner_name(owner), event.node, format_time_us(event.t));
      }, ghost.by_a_fault);
    }
  }

  // A reader deleting a readers' key (rw-two-keys' "<key>:read") while other readers' leases run frees their
  // holds: a writer taking the lock's write key on that node before those leases end is a second owner.
  void track_freed_readers(const ServerEvent& event) {
    const std::string& lock = readers_.lock_of(event.key);
    if (event.event == ServerEventKind::deleted && event.by >= 0 && !event.replicated &&
        in_flight_.reading(event.by)) {
      std::vector<SharedKeyReaders::Reader> still = readers_.others_still_reading(event);
      if (!still.empty()) {
        FreedReaders freed{still, event.i, event.by, event.key};
        freed_readers_[{event.node, lock}] = std::move(freed);
      }
    }
    readers_.observe(event, in_flight_);
    const bool write_key = write_keys_.count(event.key) != 0;
    if (!write_key || event.event != ServerEventKind::created || event.replicated) return;
    auto it = freed_readers_.find({event.node, lock});
    if (it == freed_readers_.end()) return;
    const std::int64_t writer = owner_of(event);
    for (const SharedKeyReaders::Reader& reader : it->second.readers) {
      if (reader.process == writer || event.t >= reader.lease_end_us) continue;
      const FreedReaders& freed = it->second;
      flag({freed.deleted_i, event.i}, [&] {
        return fmt::format("process {}'s release deleted the readers' key '{}' on node {} while process {} still held a "
                           "read lease (until t={}); then {} took the write key '{}' at t={}: a writer with a reader",
                           freed.deleted_by, freed.key, event.node, reader.process, format_time_us(reader.lease_end_us),
                           owner_name(writer), event.key, format_time_us(event.t));
      });
      break;
    }
  }

  // No deadline on the node: entitled for as long as the owner's own lease lasts (item: a client-timestamp
  // lock whose crashed holder's stored deadline has passed is taken over by design, not a double grant).
  void lose_deadline(Instance& instance, const ServerEvent& event) const {
    instance.without_deadline = true;
    instance.entitled_until_us =
        instance.owner < 0 ? kForever : leases_.lease_end_us(instance.owner, event.key, instance.token, event.t);
  }

  // A hash lock changes fields in place (reentry counts). The owner's own changes are its business; another
  // process changing a held single-owner instance (adding its own field, say) is a second owner in the key.
  void on_modified(const ServerEvent& event, KeyState& state) {
    if (event.replicated || event.by < 0) return;
    if (!state.current) {
      // A key the checker knows no live instance of, changed in place: a copy it never saw created (a
      // promoted replica's stale hash, say) now serves this process, as if it had created the key.
      if (state.ghost) on_set(event, state);
      return;
    }
    const Instance& held = *state.current;
    if (held.owner < 0 || held.owner == event.by || (held.shared && in_flight_.reading(event.by))) return;
    if (event.t >= held.entitled_until_us - entitlement_tolerance_us(held.ttl_us)) return;
    flag_second_owner(held, event, "changed", ": a second owner in one key");
  }

  // Another process wrote into `held` while it was entitled (an overwrite, or a change to a held hash).
  void flag_second_owner(const Instance& held, const ServerEvent& event, const char* how, const char* tail) {
    flag({held.created_i, event.i}, [&] {
      return fmt::format("{}'s lock instance (token {}) on node {} was {} by {} at t={} while it was entitled "
                         "until t={}{}",
                         owner_name(held.owner), short_token(held.token), event.node, how,
                         in_flight_.describe(event.by, event.command, event.script), format_time_us(event.t),
                         format_time_us(held.entitled_until_us), tail);
    });
  }

  // The node granted (expire_at_ms - node_time_ms) more: entitlement runs that long in true time from now.
  static void grant(Instance& instance, const ServerEvent& event) {
    std::int64_t ttl_us = (event.expire_at_ms - event.node_time_ms) * 1'000;
    std::int64_t until = event.t + ttl_us;
    if (instance.without_deadline) {  // the first deadline replaces the owner's lease
      instance.without_deadline = false;
      instance.entitled_until_us = kForever;
    }
    if (instance.entitled_until_us != kForever && until < instance.entitled_until_us) {
      // A lowered deadline does not shorten the owner's entitlement (F17: reentry with a shorter lease).
      instance.shortened = fmt::format("its deadline was lowered to {} at t={} by {}", format_duration_us(ttl_us),
                                       format_time_us(event.t), owner_name(event.by));
      return;
    }
    instance.set_t_us = event.t;
    instance.ttl_us = ttl_us;
    instance.entitled_until_us = until;
  }

  void on_expire_set(const ServerEvent& event, KeyState& state) {
    if (!state.current || event.expire_at_ms < 0) return;
    grant(*state.current, event);
    entitle(event, *state.current);
  }

  std::string removal_cause(const ServerEvent& event, const Instance& held) const {
    std::string who = fmt::format("{}'s lock instance (token {})", owner_name(held.owner), short_token(held.token));
    std::string text = removal_cause(event, who, held.set_t_us, held.ttl_us);
    if (event.event == ServerEventKind::expired && !held.shortened.empty()) text += "; " + held.shortened;
    return text;
  }

  // How `who` (granted ttl_us at true time set_t_us) left the node.
  std::string removal_cause(const ServerEvent& event, const std::string& who, std::int64_t set_t_us,
                            std::int64_t ttl_us) const {
    switch (event.event) {
      case ServerEventKind::deleted:
        if (event.by < 0) {
          return fmt::format("{} was deleted on node {} by the server at t={}", who, event.node,
                             format_time_us(event.t));
        }
        return fmt::format("{} was deleted on node {} by {} at t={}", who, event.node,
                           in_flight_.describe(event.by, event.command, event.script), format_time_us(event.t));
      case ServerEventKind::expired:
        return fmt::format("{} expired on node {}'s clock at t={} after only {} of true time (TTL {})", who,
                           event.node, format_time_us(event.t), format_duration_us(event.t - set_t_us),
                           format_duration_us(ttl_us));
      case ServerEventKind::evicted:
        return fmt::format("{} was evicted from node {} at t={}", who, event.node, format_time_us(event.t));
      case ServerEventKind::lost: {
        auto it = last_node_fault_.find(event.node);
        std::string how = "lost";
        if (it != last_node_fault_.end()) {
          const FaultEvent& fault = it->second;
          if (fault.is(sim::FaultKind::failover)) how = "lost in failover";
          if (fault.is(sim::FaultKind::node_restart)) how = fmt::format("lost when node {} restarted (mode {})", event.node,
                                                               fault.mode.empty() ? "lost" : fault.mode);
        }
        return fmt::format("{} was {} on node {} at t={}", who, how, event.node, format_time_us(event.t));
      }
      default: return who;
    }
  }

  // The simulator reports what the promoted node lacked as `lost` on the old master, at the failover's
  // time: the promoted node's copy of that instance is then known to be gone.
  void carry_failover_loss(const ServerEvent& event) {
    const std::optional<std::int64_t> promoted_node = losses_.promoted_for(event);
    if (!promoted_node) return;
    KeyState& promoted = states_[{*promoted_node, event.key}];
    if (!promoted.current || promoted.current->token != event.value) return;
    Instance held = *promoted.current;
    promoted.current.reset();
    promoted.ghost = Ghost{held, event.i, held.failover_cause, true, -1, 0, 0};
  }

  void on_removed(const ServerEvent& event, KeyState& state) {
    if (event.event == ServerEventKind::lost) carry_failover_loss(event);
    if (!state.current) return;
    Instance held = std::move(*state.current);
    state.current.reset();
    state.ghost.reset();
    if (event.replicated) return;
    bool by_owner = event.event == ServerEventKind::deleted && event.by >= 0 &&
                    (held.owner < 0 || held.owner == event.by || (held.shared && in_flight_.reading(event.by)));
    close_hold(event.node, event.key, held, event.t, by_owner);
    if (by_owner) master_grants_.released(held.owner, held.token);
    if (by_owner) return;  // a release (or the owner's own DEL): the instance ends as intended
    if (held.entitled_until_us != kForever &&
        event.t >= held.entitled_until_us - entitlement_tolerance_us(held.ttl_us)) {
      return;  // gone on time (or late: a backward node clock, S7, costs liveness only)
    }
    const bool by_a_fault = event.event == ServerEventKind::expired || event.event == ServerEventKind::lost ||
                            event.event == ServerEventKind::evicted;
    state.ghost = Ghost{held, event.i, removal_cause(event, held), by_a_fault, -1, 0, 0};
    if (event.event == ServerEventKind::expired) {
      state.ghost->clock_node = event.node;
      state.ghost->clock_from_us = held.set_t_us;
      state.ghost->clock_to_us = event.t;
    }
  }

  std::string full_cause(const Ghost& ghost) const {
    if (ghost.clock_node < 0) return ghost.cause;
    std::string clock = node_clock_faults(history_, ghost.clock_node, ghost.clock_from_us, ghost.clock_to_us);
    return clock.empty() ? ghost.cause : ghost.cause + "; " + clock;
  }

  const History& history_;
  bool first_by_a_fault_ = false;
  std::set<std::string> keys_;
  std::map<std::string, std::int64_t> owners_;
  OwnerLeases leases_;
  SharedKeyReaders readers_;
  struct FreedReaders {
    std::vector<SharedKeyReaders::Reader> readers;
    std::int64_t deleted_i = 0;
    std::int64_t deleted_by = -1;
    std::string key;
  };
  std::map<std::pair<std::int64_t, std::string>, FreedReaders> freed_readers_;  // (node, lock) -> last such
  std::set<std::string> write_keys_ = [this] {
    std::set<std::string> keys;
    for (const Meta::DerivedKey& derived : history_.meta.lock_keys) {
      if (!derived.shared) keys.insert(derived.key);
    }
    return keys;
  }();
  InFlight in_flight_;
  HolderKeys holder_keys_;
  MasterRoles roles_;
  MasterGrants master_grants_{roles_};
  std::set<std::pair<std::int64_t, std::int64_t>> flagged_pairs_;  // (first witness, last witness) of each flag
  std::map<std::pair<std::int64_t, std::string>, KeyState> states_;
  std::map<std::int64_t, FaultEvent> last_node_fault_;
  std::map<std::int64_t, std::int64_t> cut_off_since_;  // split_brain: node -> true time it was cut off
  FailoverLosses losses_;
  std::vector<NodeHold> holds_;  // quorum locks only: every instance's entitled stretch
  bool seen_lock_event_ = false;
  std::int64_t violations_ = 0;
  std::vector<std::int64_t> first_witnesses_;
  std::string first_cause_;
};

}  // namespace

Verdict check_mutual_exclusion_server(const History& history) {
  if (history.meta.permits > 0) return judged_by_permit_safety("mutual_exclusion_server", history);
  return Checker(history).run();
}

}  // namespace lockcheck::properties
