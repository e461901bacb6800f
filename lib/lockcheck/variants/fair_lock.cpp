#include "lockcheck/variants/fair_lock.hpp"

#include <algorithm>

#include "lockcheck/scripts.hpp"

namespace lockcheck {
namespace {

const Script& fair_acquire_script() {
  static const Script script(scripts::fair_acquire);
  return script;
}
const Script& fair_leave_script() {
  static const Script script(scripts::fair_leave);
  return script;
}

// `key` + `suffix` in `key`'s Redis Cluster slot: the key's own hash tag kept, or the whole key made the tag.
// A key with braces but no hash tag cannot share its slot this way; its names are plain (one node only).
std::string in_slot_of(const std::string& key, const std::string& suffix) {
  const std::size_t open = key.find('{');
  const std::size_t close = open == std::string::npos ? std::string::npos : key.find('}', open + 1);
  if (close != std::string::npos && close > open + 1) return key + suffix;
  if (key.find_first_of("{}") != std::string::npos) return key + suffix;
  return "{" + key + "}" + suffix;
}

}  // namespace

std::string FairLock::queue_key(const std::string& key) { return in_slot_of(key, ":fair-queue"); }

std::string FairLock::deadlines_key(const std::string& key) { return in_slot_of(key, ":fair-deadlines"); }

Millis FairLock::waiter_lease() const { return std::max(Millis(1), options_.ttl / 2); }

Task<detail::SingleKeyLock::Attempt> FairLock::attempt(const std::string& key, const std::string& token,
                                                       bool /*after_lost_reply*/) {
  // The script recognises our own token in the lock key, so a retry after a lost reply needs nothing else.
  std::vector<std::string> keys{key, queue_key(key), deadlines_key(key)};
  std::vector<std::string> args{token, ttl_ms(), std::to_string(waiter_lease().count())};
  return script_attempt(fair_acquire_script(), std::move(keys), std::move(args));
}

Task<void> FairLock::wait_to_retry(const std::string& /*key*/, Micros pause, Micros /*left*/) {
  const Micros poll_within = std::chrono::duration_cast<Micros>(waiter_lease()) / 4;
  co_await clock_.sleep(std::max(Micros(1), std::min(pause, poll_within)));
}

Task<void> FairLock::gave_up(const std::string& key, const std::string& token) {
  // Best effort: without it the place lapses one waiter lease later anyway.
  std::vector<std::string> keys{key, queue_key(key), deadlines_key(key)};
  std::vector<std::string> args{token};
  co_await run_script(fair_leave_script(), std::move(keys), std::move(args));
}

}  // namespace lockcheck
