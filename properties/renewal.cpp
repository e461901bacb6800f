// renewal: renewal stops once the lock is released (F20: a watchdog that outlives its holder), and in a
// run without any fault a holder that renews never loses its lock. A renewal that fails after a fault
// (pause, partition, clock) is the lock telling the truth (S10), not a violation here.
#include <fmt/format.h>

#include <map>

#include "checkers.hpp"
#include "describe.hpp"

namespace lockcheck::properties {

Verdict check_renewal(const History& history) {
  Verdict verdict;
  verdict.property = "renewal";
  bool fault_free = true;
  for (const Event& event : history.events) {
    if (std::holds_alternative<FaultEvent>(event)) fault_free = false;
  }
  std::map<std::pair<std::int64_t, std::string>, const Op*> released;  // (process, token) -> release invoke
  std::map<std::pair<std::int64_t, std::string>, std::int64_t> depth;  // (process, key) -> nested holds
  std::int64_t renewals = 0;
  std::int64_t violations = 0;
  auto flag = [&](std::vector<std::int64_t> witnesses, std::string cause) {
    if (violations++ > 0) return;
    verdict.witnesses = std::move(witnesses);
    verdict.cause = std::move(cause);
  };
  for (const Event& event : history.events) {
    if (const auto* fault = std::get_if<FaultEvent>(&event); fault && fault->fault == "crash") {
      for (auto& [process_key, holds] : depth) {
        if (process_key.first == fault->process) holds = 0;
      }
    }
    const auto* op = std::get_if<Op>(&event);
    if (op == nullptr) continue;
    std::pair<std::int64_t, std::string> id{op->process, op->token};
    std::int64_t& holds = depth[{op->process, op->key}];
    if (op->fn == OpFn::acquire && op->type == OpType::ok) {
      ++holds;
      released.erase(id);
    }
    // Only the outermost release ends the lock: renewing after an inner (reentrant) release is right.
    if (op->fn == OpFn::release && op->type == OpType::invoke && holds > 0 && --holds == 0) released[id] = op;
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
  conclude(verdict, violations, renewals,
           fmt::format("{} renewal violation(s) in {} renewal(s)", violations, renewals),
           "not exercised (no renewals)",
           fmt::format("{} renewal(s), none after a release{}", renewals,
                       fault_free ? ", none lost in this fault-free run" : ""));
  return verdict;
}

}  // namespace lockcheck::properties
