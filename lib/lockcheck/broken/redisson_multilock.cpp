#include "lockcheck/broken/redisson_multilock.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "lockcheck/backoff.hpp"
#include "lockcheck/errors.hpp"
#include "lockcheck/script.hpp"
#include "lockcheck/scripts.hpp"

namespace lockcheck::broken {
namespace {

const Script& member_acquire_script() {
  static const Script script(scripts::redisson_multilock_member_acquire);
  return script;
}
const Script& member_release_script() {
  static const Script script(scripts::redisson_multilock_member_release);
  return script;
}
const Script& member_renew_script() {
  static const Script script(scripts::reentrant_hash_renew);  // the owner's: PEXPIRE; else nothing
  return script;
}

}  // namespace

RedissonMultiLock::RedissonMultiLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, Needs needs)
    : port_(port), clock_(clock), entropy_(entropy), options_(options), needs_(needs) {
  validate_lock_options(options_);
  if (port_.node_count() == 0) throw InvalidArgument("redisson-multilock needs at least one master");
}

std::size_t RedissonMultiLock::needed() const {
  const std::size_t members = port_.node_count();
  return needs_ == Needs::every_member ? members : members / 2 + 1;
}

Task<RedissonMultiLock::Member> RedissonMultiLock::try_member(std::size_t node, const std::string& key,
                                                              const std::string& owner, Micros wait) {
  Member member;
  const MonoTime give_up_at = clock_.monotonic_now() + wait;
  for (std::uint32_t attempt = 1; attempt <= options_.retry.max_attempts; ++attempt) {
    std::vector<std::string> keys{key};
    std::vector<std::string> args{owner, std::to_string(options_.ttl.count())};
    const CallResult call = co_await eval(port_, node, member_acquire_script(), std::move(keys), std::move(args));
    if (call.replied()) {
      if (call.reply.is_error()) {
        throw RedisError(fmt::format("acquire of lock '{}' on node {} failed: {}", key, node, call.reply.text));
      }
      member.replied = true;
      if (call.reply.is_integer(1)) {
        member.granted = true;
        co_return member;
      }
      member.held_by_another = true;
    } else if (call.status == CallStatus::unknown) {
      // A timed-out member counts as failed; Redisson gives it back in case the command ran.
      std::vector<std::size_t> just_this{node};
      co_await unlock_members(key, owner, just_this);
      co_return member;
    }
    const MonoTime now = clock_.monotonic_now();
    if (now >= give_up_at) break;
    co_await clock_.sleep(std::min(backoff_delay(options_.retry, entropy_, attempt), give_up_at - now));
  }
  co_return member;
}

Task<AcquireResult> RedissonMultiLock::acquire(std::string key, Micros wait) {
  validate_lock_key(key);
  const std::size_t members = port_.node_count();
  const std::size_t failed_allowed = members - needed();
  const MonoTime give_up_at = clock_.monotonic_now() + std::max(wait, Micros::zero());
  // No wait is Redisson's tryLock(): one pass over the members, no time limit between them, no second pass.
  const bool timed = wait > Micros::zero();
  const std::string owner = entropy_.token_hex();
  AcquireResult result;
  bool any_reply = false;
  std::vector<std::size_t> acquired;
  std::size_t failed_left = failed_allowed;
  std::size_t node = 0;
  while (result.attempts < options_.retry.max_attempts && node < members) {
    ++result.attempts;
    const Micros left = std::max(give_up_at - clock_.monotonic_now(), Micros::zero());
    // The multi-lock waits on each member for what is left of the wait; the RedLock for a share of it.
    const Micros member_wait = needs_ == Needs::every_member
                                   ? left
                                   : std::max(Micros(left.count() / static_cast<std::int64_t>(members)), Micros(Millis(1)));
    const Member member = co_await try_member(node, key, owner, member_wait);
    any_reply = any_reply || member.replied;
    if (member.held_by_another) result.refused_at = clock_.monotonic_now();
    if (member.granted) {
      acquired.push_back(node);
    } else if (members - acquired.size() == failed_allowed && failed_allowed > 0) {
      break;  // the members not tried yet cannot change the outcome
    } else if (failed_left == 0) {
      // One member too many failed: give back what is held and start over from the first, while the wait lasts.
      co_await unlock_members(key, owner, acquired);
      acquired.clear();
      failed_left = failed_allowed;
      if (!timed || clock_.monotonic_now() >= give_up_at) break;
      node = 0;
      continue;
    } else {
      --failed_left;
    }
    ++node;
    if (timed && acquired.size() < needed() && clock_.monotonic_now() >= give_up_at) break;
  }
  if (acquired.size() >= needed()) {
    // The lease is set again on every held member (a plain PEXPIRE, as Redisson's expireAsync), and counted from
    // here: whether the first members are still held is not checked.
    const MonoTime started = clock_.monotonic_now();
    std::vector<NodeCommand> expires;
    for (const std::size_t held : acquired) {
      expires.push_back({held, Command{"PEXPIRE", key, std::to_string(options_.ttl.count())}});
    }
    co_await port_.fan_out(std::move(expires));
    const Micros ttl_us = std::chrono::duration_cast<Micros>(options_.ttl);
    result.status = AcquireStatus::acquired;
    result.lease = Lease{key, owner, started, started + ttl_us - drift_margin(options_), 0, false, &clock_};
    co_return result;
  }
  co_await unlock_members(key, owner, acquired);
  result.detail = fmt::format("{} of {} members held; {} needed", acquired.size(), members, needed());
  result.status = any_reply ? AcquireStatus::busy : AcquireStatus::unreachable;
  co_return result;
}

Task<bool> RedissonMultiLock::unlock_members(const std::string& key, const std::string& owner,
                                             const std::vector<std::size_t>& nodes, bool* unanswered) {
  if (nodes.empty()) co_return false;
  const std::vector<std::string> keys{key};
  const std::vector<std::string> args{owner};
  std::vector<CallResult> replies = co_await eval_on(port_, nodes, member_release_script(), keys, args);
  bool released = false;
  for (const CallResult& reply : replies) {
    if (reply.replied() && reply.reply.is_integer(1)) released = true;
    if (!reply.replied() && unanswered != nullptr) *unanswered = true;
  }
  co_return released;
}

Task<ReleaseStatus> RedissonMultiLock::release(Lease& lease) {
  lease.known_lost = true;
  std::vector<std::size_t> every;
  for (std::size_t node = 0; node < port_.node_count(); ++node) every.push_back(node);
  bool unanswered = false;
  const bool released = co_await unlock_members(lease.key, lease.token, every, &unanswered);
  if (released) co_return ReleaseStatus::released;
  co_return unanswered ? ReleaseStatus::unknown : ReleaseStatus::not_owned;
}

Task<RenewStatus> RedissonMultiLock::renew(Lease& lease) {
  if (lease.known_lost) co_return RenewStatus::lost;
  std::vector<std::size_t> every;
  for (std::size_t node = 0; node < port_.node_count(); ++node) every.push_back(node);
  const MonoTime started = clock_.monotonic_now();
  const std::vector<std::string> keys{lease.key};
  const std::vector<std::string> args{lease.token, std::to_string(options_.ttl.count())};
  std::vector<CallResult> replies = co_await eval_on(port_, every, member_renew_script(), keys, args);
  std::size_t extended = 0, refused = 0;
  for (const CallResult& reply : replies) {
    if (!reply.replied()) continue;
    if (reply.reply.is_integer(1)) ++extended;
    else ++refused;
  }
  if (extended >= needed()) {
    lease.valid_until = started + std::chrono::duration_cast<Micros>(options_.ttl) - drift_margin(options_);
    co_return RenewStatus::renewed;
  }
  if (refused > port_.node_count() - needed()) {
    lease.known_lost = true;
    co_return RenewStatus::lost;
  }
  co_return RenewStatus::unknown;
}

}  // namespace lockcheck::broken
