#include "history_facts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "describe.hpp"

namespace lockcheck::properties {

bool KeyOwner::names(const std::string& token) const {
  return value == token ||
         std::any_of(holders.begin(), holders.end(), [&](const Holder& holder) { return holder.token == token; });
}

void KeyOwner::apply(const ServerEvent& event) {
  switch (event.event) {
    case ServerEventKind::created:
    case ServerEventKind::overwritten:
      *this = KeyOwner{event.value, event.holders.value_or(std::vector<Holder>{})};
      break;
    case ServerEventKind::deleted:
    case ServerEventKind::expired:
    case ServerEventKind::evicted:
    case ServerEventKind::lost:
      *this = KeyOwner{};
      break;
    case ServerEventKind::modified:
    case ServerEventKind::expire_set:
    case ServerEventKind::expire_removed:
      if (!event.value.empty()) value = event.value;
      if (event.holders) holders = *event.holders;
      break;
  }
}

std::set<std::string> lock_keys(const History& history) {
  std::set<std::string> keys;
  for (const Event& event : history.events) {
    if (const auto* op = std::get_if<Op>(&event); op != nullptr && !op->key.empty()) keys.insert(op->key);
  }
  // Keys a variant declared it keeps for a lock (meta lock_keys) are lock keys too, once a client used the lock.
  for (const Meta::DerivedKey& derived : history.meta.lock_keys) {
    if (keys.count(derived.lock) != 0) keys.insert(derived.key);
  }
  return keys;
}

std::map<std::string, std::int64_t> token_owners(const History& history) {
  std::map<std::string, std::int64_t> owners;
  for (const Event& event : history.events) {
    const auto* op = std::get_if<Op>(&event);
    if (op == nullptr || op->fn != OpFn::acquire || op->type != OpType::ok || op->token.empty()) continue;
    owners.emplace(op->token, op->process);  // the first acquirer; a shared token (thread-id) keeps the first
  }
  return owners;
}

void InFlight::observe(const Op& op) {
  if (op.type == OpType::invoke) {
    pending_f_[op.process].insert(op.f);
  } else {
    pending_f_[op.process].erase(op.f);
  }
  // A reader is in read mode from its shared acquire's invoke until its shared release completes (or the
  // acquire fails): the server events it causes meanwhile touch a key that readers share.
  if (!op.shared) return;
  const bool ends = (op.fn == OpFn::release && op.type != OpType::invoke) ||
                    (op.fn == OpFn::acquire && op.type == OpType::fail);
  if (ends) {
    reading_.erase({op.process, op.thread});
  } else {
    reading_.insert({op.process, op.thread});
  }
}

bool InFlight::reading(std::int64_t process) const {
  const auto first = reading_.lower_bound({process, std::numeric_limits<std::int64_t>::min()});
  return first != reading_.end() && first->first == process;
}

std::string InFlight::describe(std::int64_t process, const std::string& command, const std::string& script,
                               const std::string& likely_f) const {
  auto it = pending_f_.find(process);
  std::string what = "command";
  if (it != pending_f_.end() && !it->second.empty()) {
    what = it->second.count(likely_f) > 0 ? likely_f : *it->second.begin();
  }
  if (command.empty()) return fmt::format("process {}'s {}", process, what);
  std::string upper = command;  // the mock reports command names in lower case; messages quote them as Redis does
  for (char& c : upper) c = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
  // A command run by a script is named with the script, so a compare-and-delete is not mistaken for a bare DEL.
  // A user's script is named by its file (meta script_files), a built-in one by its SHA1's first 8 digits.
  if (!script.empty()) {
    const bool sha = script.size() == 40 && script.find_first_not_of("0123456789abcdef") == std::string::npos;
    return fmt::format("process {}'s {} ({} in {})", process, what, upper,
                       sha ? "script " + script.substr(0, 8) : script);
  }
  return fmt::format("process {}'s {} ({})", process, what, upper);
}

namespace {

std::string join_parts(const std::string& text, const std::string& part) {
  return text.empty() ? part : text + ", " + part;
}

std::string signed_duration(std::int64_t delta_us) {
  return (delta_us >= 0 ? "+" : "") + format_duration_us(delta_us);
}

}  // namespace

std::string node_clock_faults(const History& history, std::int64_t node, std::int64_t from_us, std::int64_t to_us) {
  std::string text;
  for (const Event& event : history.events) {
    const auto* fault = std::get_if<FaultEvent>(&event);
    if (fault == nullptr || fault->node != node || fault->t <= from_us || fault->t > to_us) continue;
    if (fault->is(sim::FaultKind::node_clock_jump)) {
      text = join_parts(text, fmt::format("node {}'s clock jumped {} at t={}", node, signed_duration(fault->delta_us),
                                          format_time_us(fault->t)));
    } else if (fault->is(sim::FaultKind::node_clock_drift)) {
      text = join_parts(text, fmt::format("node {}'s clock drifted {} ppm from t={}", node, fault->drift_ppm,
                                          format_time_us(fault->t)));
    }
  }
  return text;
}

std::string process_faults(const History& history, std::int64_t process, std::int64_t from_us, std::int64_t to_us) {
  std::string text;
  for (const Event& event : history.events) {
    const auto* fault = std::get_if<FaultEvent>(&event);
    if (fault == nullptr || fault->process != process || fault->t < from_us || fault->t > to_us) continue;
    if (fault->is(sim::FaultKind::pause)) {
      text = join_parts(text, fmt::format("process {} was paused at t={} for {}", process, format_time_us(fault->t),
                                          format_duration_us(fault->duration_us)));
    } else if (fault->is(sim::FaultKind::client_clock_jump)) {
      text = join_parts(text, fmt::format("process {}'s clock jumped {} at t={}", process,
                                          signed_duration(fault->delta_us), format_time_us(fault->t)));
    } else if (fault->is(sim::FaultKind::client_clock_drift)) {
      text = join_parts(text, fmt::format("process {}'s clock drifted {} ppm from t={}", process, fault->drift_ppm,
                                          format_time_us(fault->t)));
    }
  }
  return text;
}

std::string upper_command(std::string command) {
  for (char& c : command) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return command;
}

std::vector<const FaultEvent*> fault_lines(const History& history) {
  std::vector<const FaultEvent*> faults;
  for (const Event& event : history.events) {
    if (const auto* fault = std::get_if<FaultEvent>(&event)) faults.push_back(fault);
  }
  return faults;
}

std::int64_t fault_ended_at(const std::vector<const FaultEvent*>& faults, std::size_t at) {
  for (std::size_t j = at + 1; j < faults.size(); ++j) {
    if (faults[j]->ends(*faults[at])) return faults[j]->t;
  }
  return kForever;
}

}  // namespace lockcheck::properties
