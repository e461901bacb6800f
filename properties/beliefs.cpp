#include "beliefs.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "history_facts.hpp"

namespace lockcheck::properties {

namespace {

struct Hold {
  std::int64_t count = 0;  // nested acquires not yet released
  std::string token;
  std::int64_t start_us = 0;
  std::int64_t start_i = 0;
  std::int64_t valid_until_us = kForever;
  std::int64_t acted_us = -1;  // the latest resource op while inside, if after the validity
  std::int64_t acted_i = -1;
  bool shared = false;  // the outermost acquire was a read
};

class Tracker {
 public:
  std::vector<Belief> run(const History& history) {
    for (const Event& event : history.events) {
      if (const auto* op = std::get_if<Op>(&event)) on_op(*op);
      if (const auto* resource = std::get_if<ResourceEvent>(&event)) on_resource(*resource);
      if (const auto* fault = std::get_if<FaultEvent>(&event); fault != nullptr && fault->is(sim::FaultKind::crash)) {
        for (auto& [id, hold] : holds_) {  // every thread of the process dies with it
          if (id.process == fault->process && hold.count > 0) close(id, hold, fault->t, "crash");
        }
      }
    }
    for (auto& [id, hold] : holds_) {
      if (hold.count > 0) close(id, hold, history.end_us(), "history end");
    }
    std::stable_sort(beliefs_.begin(), beliefs_.end(),
                     [](const Belief& a, const Belief& b) { return a.start_us < b.start_us; });
    return beliefs_;
  }

 private:
  struct HolderKey {
    std::int64_t process = 0;
    std::int64_t thread = 0;
    std::string key;
    auto operator<=>(const HolderKey&) const = default;
  };

  // A renewal line names no thread (the watchdog renews a lease, not a thread): it goes to the process's
  // thread holding that token, if one does.
  HolderKey holder_of(const Op& op) const {
    HolderKey id{op.process, op.thread, op.key};
    if (op.fn != OpFn::renew || op.thread != 0 || op.token.empty()) return id;
    for (const auto& [held, hold] : holds_) {
      if (held.process == op.process && held.key == op.key && hold.count > 0 && hold.token == op.token) return held;
    }
    return id;
  }

  void on_op(const Op& op) {
    const HolderKey id = holder_of(op);
    if (op.fn == OpFn::acquire && op.type == OpType::ok) {
      Hold& hold = holds_[id];
      std::int64_t valid_until = op.valid_until_us.value_or(kForever);
      if (hold.count == 0) {
        hold = Hold{1, op.token, op.t, op.i, valid_until};
        hold.shared = op.shared;
        return;
      }
      ++hold.count;  // reentry
      restart_if_lapsed(id, hold, op);
      hold.valid_until_us = std::max(hold.valid_until_us, valid_until);
    } else if (op.fn == OpFn::release && op.type == OpType::invoke) {
      auto it = holds_.find(id);
      if (it == holds_.end() || it->second.count == 0) return;
      if (--it->second.count == 0) close(id, it->second, op.t, "release");
    } else if (op.fn == OpFn::renew && op.type == OpType::ok) {
      auto it = holds_.find(id);
      if (it == holds_.end() || it->second.count == 0) return;
      restart_if_lapsed(id, it->second, op);
      if (op.valid_until_us) it->second.valid_until_us = *op.valid_until_us;
    } else if (op.fn == OpFn::renew && op.type == OpType::fail) {
      auto it = holds_.find(id);
      if (it == holds_.end() || it->second.count == 0) return;
      // The client now knows the lock is gone: its belief ends here even if validity had time left.
      if (op.t < it->second.valid_until_us) {
        it->second.valid_until_us = op.t;
        pending_reason_[id] = "renew lost";
      }
    }
  }

  void on_resource(const ResourceEvent& resource) {
    for (auto& [id, hold] : holds_) {
      if (id.process != resource.process || id.thread != resource.thread || hold.count == 0) continue;
      if (resource.t > hold.valid_until_us) {
        hold.acted_us = resource.t;
        hold.acted_i = resource.i;
      }
    }
  }

  // A renewal or reentry after the validity ran out: the believed stretch ended at valid_until; a new one
  // starts now, if the op gives a validity that reaches past now. One already over when it is learnt (a
  // renewal's reply held up by a pause past the TTL) starts none: the stretch runs on from the grant, and what
  // the holder does next is past its validity (a stretch begun there would end where it began, and be dropped
  // with the late write in it: the explore gate at 1000 runs, seed 923).
  void restart_if_lapsed(const HolderKey& id, Hold& hold, const Op& op) {
    if (op.t <= hold.valid_until_us) return;
    if (op.valid_until_us && *op.valid_until_us <= op.t) return;
    auto pending = pending_reason_.find(id);
    emit(id, hold, hold.valid_until_us, pending != pending_reason_.end() ? pending->second : "valid_until");
    pending_reason_.erase(id);
    hold.start_us = op.t;
    hold.start_i = op.i;
    hold.acted_us = -1;
    hold.acted_i = -1;
  }

  void close(const HolderKey& id, Hold& hold, std::int64_t t_us, const char* reason) {
    std::string why = reason;
    if (hold.valid_until_us <= t_us) {
      auto pending = pending_reason_.find(id);
      why = pending != pending_reason_.end() ? pending->second : std::string("valid_until");
    }
    emit(id, hold, std::min(t_us, hold.valid_until_us), why);
    hold.count = 0;
    pending_reason_.erase(id);
  }

  void emit(const HolderKey& id, const Hold& hold, std::int64_t end_us, const std::string& reason) {
    std::int64_t acted_i = -1;
    std::string why = reason;
    if (hold.acted_us > end_us) {  // it kept acting past its validity: its belief reached that far
      end_us = hold.acted_us;
      acted_i = hold.acted_i;
      why = "acted";
    }
    if (end_us <= hold.start_us) return;
    beliefs_.push_back(Belief{id.process, id.thread, id.key, hold.token, hold.start_us, end_us, hold.start_i, why,
                              hold.valid_until_us, acted_i, hold.shared});
  }

  std::map<HolderKey, Hold> holds_;
  std::map<HolderKey, std::string> pending_reason_;
  std::vector<Belief> beliefs_;
};

}  // namespace

std::vector<Belief> belief_intervals(const History& history) { return Tracker().run(history); }

std::string holder_name(const Belief& belief) {
  return belief.thread == 0 ? fmt::format("process {}", belief.process)
                            : fmt::format("process {} thread {}", belief.process, belief.thread);
}

OwnerLeases::OwnerLeases(const History& history) : ttl_us_(history.meta.ttl_ms * 1'000) {
  for (Belief& belief : belief_intervals(history)) {
    beliefs_[{belief.process, belief.key}].push_back(std::move(belief));
  }
}

std::int64_t OwnerLeases::lease_end_us(std::int64_t process, const std::string& key, const std::string& token,
                                       std::int64_t t_us) const {
  auto it = beliefs_.find({process, key});
  if (it == beliefs_.end()) return t_us;
  auto end_of = [](const Belief& belief) {
    // A late action past the validity is the client's mistake, not an entitlement the node owes it.
    return belief.end_reason == "acted" ? belief.valid_until_us : belief.end_us;
  };
  if (!token.empty()) {  // the value names the acquisition (a token lock): its own belief
    for (const Belief& belief : it->second) {
      if (belief.token == token && end_of(belief) > t_us) return end_of(belief);
    }
  }
  for (const Belief& belief : it->second) {  // else the process's belief at that time
    if (end_of(belief) > t_us && belief.start_us <= t_us + ttl_us_) return end_of(belief);
  }
  return t_us;
}

}  // namespace lockcheck::properties
