#include "properties/exercise.hpp"

#include <algorithm>
#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace lockcheck::properties {
namespace {

struct MarkRow {
  std::string_view name;
  std::string_view sentence;
};

constexpr MarkRow kMarks[kMarkCount] = {
    {"resumed_after_validity", "a paused holder resumed after its validity ended"},
    {"renewal_across_pause", "a renewal was in flight when its process was paused"},
    {"release_after_expiry", "a release was sent after the holder's validity had ended"},
    {"retried_after_unknown", "an acquire, release or renew ran again after an unknown outcome"},
    {"failover_lost_lock_key", "a failover or restart lost a lock key"},
    {"clock_jump_while_held", "a client's or node's clock jumped while the lock was held"},
    {"waiter_when_holder_died", "a holder crashed while another client waited to acquire"},
    {"reentrant_expiry", "the lock key expired while its owner held it more than once"},
    {"expired_while_held", "the lock key expired while its owner was still inside"},
    {"pause_during_hold", "a holder was paused"},
    {"partition_during_hold", "a holder was cut off from a node"},
    {"node_fault_during_hold", "a node crashed, restarted, failed over or split while the lock was held"},
    {"acquire_unknown", "an acquire's outcome was unknown (maybe held)"},
    {"renewal_lost", "a renewal found the lock gone"},
    {"lock_key_evicted", "the lock key was evicted under maxmemory"},
    {"release_while_other_holds", "a client sent a release while another client held the lock"},
    {"release_near_other_expiry", "a release or renewal was sent while another client's key had under a tenth of its TTL left"},
};

// A holder: a process, or one of its threads when they share one lock object.
using Holder = std::pair<std::int64_t, std::int64_t>;

struct HolderState {
  int depth = 0;
  bool shared = false;  // a reader of a read-write lock: readers hold together by design
  std::int64_t valid_until_us = 0;
  bool acquire_pending = false;
  bool release_pending = false;
  bool renew_pending = false;
  bool latch_pending = false;  // a count-down latch's count_down or await (f "count_down" / "await")
  std::set<OpFn> last_unknown;  // functions whose last completion was info
};

class Walk {
 public:
  explicit Walk(const History& history) : ttl_us_(history.meta.ttl_ms * 1000) {
    for (const Meta::DerivedKey& derived : history.meta.lock_keys) lock_keys_.insert(derived.key);
  }

  void on(const Op& op) {
    // A fault whose effect lasts (a loss period, a partition, a slow node, a drifting clock, a paused or dead
    // process) lands when a lock operation meets it, not only if one was under way when it began.
    if (!lasting_.empty()) {
      out_.faults_during_ops += static_cast<std::int64_t>(lasting_.size());
      lasting_.clear();
    }
    HolderState& state = holders_[{op.process, op.thread}];
    if (op.f == "count_down" || op.f == "await") state.latch_pending = op.type == OpType::invoke;
    if (op.type == OpType::invoke) return invoked(op, state);
    if (op.fn == OpFn::acquire || op.fn == OpFn::release || op.fn == OpFn::renew) {
      if (op.type == OpType::info) {
        ++out_.unknown_outcomes;
        state.last_unknown.insert(op.fn);
      } else {
        state.last_unknown.erase(op.fn);
      }
    }
    switch (op.fn) {
      case OpFn::acquire:
        state.acquire_pending = false;
        if (op.type == OpType::ok) {
          ++out_.acquired;
          ++state.depth;
          state.shared = op.shared;
          if (op.valid_until_us) state.valid_until_us = *op.valid_until_us;
        }
        if (op.type == OpType::info) mark(Mark::acquire_unknown);
        break;
      case OpFn::release:
        state.release_pending = false;
        if (state.depth > 0) --state.depth;
        break;
      case OpFn::renew:
        state.renew_pending = false;
        renew_pending_.erase(op.process);
        if (op.type == OpType::ok && op.valid_until_us) set_validity(op.process, *op.valid_until_us);
        if (op.type == OpType::fail) mark(Mark::renewal_lost);
        break;
      default: break;
    }
  }

  void on(const FaultEvent& fault) {
    ++out_.faults;
    const bool held = anyone_holds();
    ends_lasting(fault);
    if (held) {
      ++out_.faults_during_hold;
    } else if (anything_in_flight()) {
      ++out_.faults_during_ops;
    } else if (lasts(fault)) {
      lasting_.push_back(*fault.kind);
    }
    if (!fault.kind) {
      if (fault.is(sim::FaultFollowUp::resume)) resumed(fault);
      return;
    }
    // Which coverage marks the kind's line feeds: its row's coverage column. Every value is a case (no default).
    switch (sim::fault_row(*fault.kind).coverage) {
      case sim::FaultCoverage::paused_process:
        if (holds(fault.process)) mark(Mark::pause_during_hold);
        if (renew_pending_.count(fault.process) > 0) mark(Mark::renewal_across_pause);
        break;
      case sim::FaultCoverage::crashed_process: crashed(fault); break;
      case sim::FaultCoverage::clock_jump:
        if (held) mark(Mark::clock_jump_while_held);
        break;
      case sim::FaultCoverage::cut_process:
        if (holds(fault.process)) mark(Mark::partition_during_hold);
        break;
      case sim::FaultCoverage::node_fault:
        if (held) mark(Mark::node_fault_during_hold);
        break;
      case sim::FaultCoverage::effects_only: break;
    }
  }

  void resumed(const FaultEvent& fault) {
    for (const auto& [holder, state] : holders_) {
      if (holder.first == fault.process && state.depth > 0 && state.valid_until_us < fault.t) {
        mark(Mark::resumed_after_validity);
        break;
      }
    }
  }

  void crashed(const FaultEvent& fault) {
    bool waiter = false;
    for (const auto& [holder, state] : holders_) waiter = waiter || (holder.first != fault.process && state.acquire_pending);
    if (holds(fault.process) && waiter) mark(Mark::waiter_when_holder_died);
    for (auto& [holder, state] : holders_) {
      if (holder.first == fault.process) state = HolderState{};
    }
    renew_pending_.erase(fault.process);
  }

  void on(const ServerEvent& event) {
    if (event.replicated || lock_keys_.count(event.key) == 0) return;
    track_deadline(event);
    switch (event.event) {
      case ServerEventKind::expired:
        for (const auto& [holder, state] : holders_) {
          if (state.depth > 0) mark(Mark::expired_while_held);
          if (state.depth > 1) mark(Mark::reentrant_expiry);
        }
        break;
      case ServerEventKind::lost: mark(Mark::failover_lost_lock_key); break;
      case ServerEventKind::evicted: mark(Mark::lock_key_evicted); break;
      default: break;
    }
  }

  void on(const Meta&) {}
  void on(const ResourceEvent&) {}

  Exercise result() const { return out_; }

 private:
  void invoked(const Op& op, HolderState& state) {
    if (state.last_unknown.count(op.fn) > 0) mark(Mark::retried_after_unknown);
    switch (op.fn) {
      case OpFn::acquire:
        ++out_.acquires;
        lock_keys_.insert(op.key);
        state.acquire_pending = true;
        break;
      case OpFn::release:
        ++out_.releases;
        state.release_pending = true;
        if (near_anothers_expiry(op)) mark(Mark::release_near_other_expiry);
        if (state.depth > 0 && state.valid_until_us > 0 && op.t > state.valid_until_us) mark(Mark::release_after_expiry);
        for (const auto& [other, other_state] : holders_) {
          if (other.first != op.process && other_state.depth > 0 && !(state.shared && other_state.shared)) {
            mark(Mark::release_while_other_holds);
            break;
          }
        }
        break;
      case OpFn::renew:
        ++out_.renews;
        state.renew_pending = true;
        renew_pending_.insert(op.process);
        if (near_anothers_expiry(op)) mark(Mark::release_near_other_expiry);
        break;
      default: break;
    }
  }

  // When each node's copy of a lock key runs out in true time (as its last line that set a TTL says; a clock
  // that drifts after it moves the true deadline, which this does not follow), and who put it there.
  void track_deadline(const ServerEvent& event) {
    const auto it = std::find_if(deadlines_.begin(), deadlines_.end(), [&](const KeyDeadline& key) {
      return key.node == event.node && key.key == event.key;
    });
    const bool creates = event.event == ServerEventKind::created || event.event == ServerEventKind::overwritten;
    const bool sets_ttl = creates || event.event == ServerEventKind::modified || event.event == ServerEventKind::expire_set;
    if (!sets_ttl || event.expire_at_ms < 0 || (it == deadlines_.end() && !creates)) {
      if (it != deadlines_.end()) {  // freed, or no longer expiring
        *it = deadlines_.back();
        deadlines_.pop_back();
      }
      return;
    }
    KeyDeadline& key = it != deadlines_.end() ? *it : deadlines_.emplace_back(KeyDeadline{event.node, event.key});
    if (creates) key.owner = event.by;
    key.deadline_us = event.t + (event.expire_at_ms - event.node_time_ms) * 1000;
  }

  // Whether `op`'s key, on some node, is another process's with under a tenth of the TTL left: the boundary where
  // a release or renewal that misjudges whose key it is, or how long it has, does its harm.
  bool near_anothers_expiry(const Op& op) const {
    if (ttl_us_ <= 0) return false;
    for (const KeyDeadline& key : deadlines_) {
      if (key.key != op.key || key.owner < 0 || key.owner == op.process) continue;
      const std::int64_t left_us = key.deadline_us - op.t;
      if (left_us >= 0 && left_us * 10 < ttl_us_) return true;
    }
    return false;
  }

  // A background renewal names no thread: it extends the process's holds.
  void set_validity(std::int64_t process, std::int64_t valid_until_us) {
    for (auto& [holder, state] : holders_) {
      if (holder.first == process && state.depth > 0) state.valid_until_us = valid_until_us;
    }
  }

  bool holds(std::int64_t process) const {
    for (const auto& [holder, state] : holders_) {
      if (holder.first == process && state.depth > 0) return true;
    }
    return false;
  }

  bool anything_in_flight() const {
    for (const auto& [holder, state] : holders_) {
      if (state.acquire_pending || state.release_pending || state.renew_pending || state.latch_pending) return true;
    }
    return false;
  }

  bool anyone_holds() const {
    for (const auto& [holder, state] : holders_) {
      if (state.depth > 0) return true;
    }
    return false;
  }

  void mark(Mark mark) { ++out_.marks[static_cast<std::size_t>(mark)]; }

  // Faults whose effect outlasts their line, until the fault that ends them (the kind's row says which).
  static bool lasts(const FaultEvent& fault) {
    return fault.kind && sim::fault_row(*fault.kind).lasting && !fault.is_own_kind_end();
  }

  // A fault that ends lasting ones: what it ended never met an operation.
  void ends_lasting(const FaultEvent& fault) {
    std::erase_if(lasting_, [&](sim::FaultKind open) {
      if (fault.is(sim::FaultFollowUp::resume)) return open == sim::FaultKind::pause;  // a pause ends by itself
      const std::optional<sim::FaultKind> ended_by = sim::fault_row(open).ended_by;
      return fault.kind && ended_by == fault.kind && (open != *fault.kind || fault.is_own_kind_end());
    });
  }

  struct KeyDeadline {
    std::int64_t node = -1;
    std::string_view key;           // the history's text, which outlives the walk
    std::int64_t owner = -1;        // the process that created or overwrote the key
    std::int64_t deadline_us = -1;  // when it runs out in true time
  };

  Exercise out_;
  std::int64_t ttl_us_ = 0;
  std::vector<KeyDeadline> deadlines_;  // one per node's copy of a lock key with a deadline (a handful)
  std::vector<sim::FaultKind> lasting_;  // kinds of faults that began with nothing under way, not yet met
  std::map<Holder, HolderState> holders_;
  std::set<std::int64_t> renew_pending_;
  std::set<std::string> lock_keys_;
};

}  // namespace

std::string_view to_string(Mark mark) { return kMarks[static_cast<std::size_t>(mark)].name; }
std::string_view describe(Mark mark) { return kMarks[static_cast<std::size_t>(mark)].sentence; }

void Exercise::add(const Exercise& other) {
  for (std::size_t i = 0; i < kMarkCount; ++i) marks[i] += other.marks[i];
  acquires += other.acquires;
  acquired += other.acquired;
  releases += other.releases;
  renews += other.renews;
  unknown_outcomes += other.unknown_outcomes;
  faults += other.faults;
  faults_during_hold += other.faults_during_hold;
  faults_during_ops += other.faults_during_ops;
}

Exercise exercise_of(const History& history) {
  Walk walk(history);
  for (const Event& event : history.events) std::visit([&](const auto& each) { walk.on(each); }, event);
  return walk.result();
}

}  // namespace lockcheck::properties
