#include "lockcheck/variants/latch_lock.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "lockcheck/assert.hpp"
#include "lockcheck/backoff.hpp"
#include "lockcheck/errors.hpp"
#include "lockcheck/script.hpp"
#include "lockcheck/scripts.hpp"

namespace lockcheck {
namespace {

const Script& count_down_script() {
  static const Script script(scripts::latch_count_down);
  return script;
}
const Script& remaining_script() {
  static const Script script(scripts::latch_remaining);
  return script;
}

// The latch's scripts answer the count still missing; anything else (a proxy that did not run them) is no count,
// and would read as 0: an open latch nobody counted down.
void require_count(const Reply& reply, const char* operation, const std::string& key) {
  if (reply.kind != Reply::Kind::integer) {
    throw RedisError(fmt::format("{} latch '{}': the server answered {}, not a count", operation, key, to_string(reply)));
  }
}

}  // namespace

LatchLock::LatchLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, std::uint32_t count,
                     LatchReplication replication, std::size_t node)
    : port_(port), clock_(clock), entropy_(entropy), options_(options), count_(count), replication_(replication),
      node_(node) {
  if (count_ == 0) throw InvalidArgument("latch: a latch needs a count of at least 1");
  if (replication_.replicas < 0 || replication_.replicas > 1000) {
    throw InvalidArgument("latch: replicas must be in [0, 1000]");
  }
  if (replication_.wait_timeout <= Millis::zero()) throw InvalidArgument("latch: the WAIT timeout must be positive");
  validate_lock_options(options_);
  if (node_ >= port_.node_count()) throw InvalidArgument("latch: no such node");
  // count_down() and wait() rely on the validated options sending each request at least once: with no attempt
  // a count_down would report "unreachable" without having tried.
  LOCKCHECK_ASSERT(options_.retry.max_attempts >= 1 && options_.retry.idempotent_attempts >= 1);
}

Task<bool> LatchLock::replicated() {
  if (replication_.replicas == 0) co_return true;
  Command wait{std::string("WAIT"), std::to_string(replication_.replicas),
               std::to_string(replication_.wait_timeout.count())};
  const CallResult acked = co_await port_.call(node_, std::move(wait));
  co_return acked.replied() && acked.reply.kind == Reply::Kind::integer && acked.reply.integer >= replication_.replicas;
}

Task<CountDownResult> LatchLock::count_down(std::string key, std::string participant, Micros budget) {
  validate_lock_key(key);
  if (participant.empty()) throw InvalidArgument("latch: a count_down needs a participant id");
  LOCKCHECK_ASSERT(count_ > 0);  // a latch of count 0 would be open before anyone counted down
  CountDownResult result;
  const MonoTime give_up_at = clock_.monotonic_now() + budget;
  bool maybe_ran = false;
  // Sent again until acknowledged: the script records the participant once, so a retry never counts twice.
  for (std::uint32_t attempt = 1; attempt <= options_.retry.max_attempts; ++attempt) {
    if (attempt > 1) {
      const MonoTime now = clock_.monotonic_now();
      if (now >= give_up_at && attempt > options_.retry.idempotent_attempts) break;
      co_await clock_.sleep(std::min(backoff_delay(options_.retry, entropy_, attempt - 1),
                                     std::max(give_up_at - now, options_.retry.delay_min)));
    }
    ++result.attempts;
    std::vector<std::string> keys{key};
    std::vector<std::string> args{std::to_string(count_), participant, std::to_string(kLatchStateLife.count())};
    const CallResult call = co_await eval(port_, node_, count_down_script(), std::move(keys), std::move(args));
    if (!call.replied()) {
      maybe_ran = maybe_ran || call.status == CallStatus::unknown;
      result.detail = call.detail;
      continue;
    }
    if (call.reply.is_error()) throw RedisError(fmt::format("count_down of latch '{}' failed: {}", key, call.reply.text));
    require_count(call.reply, "count_down of", key);
    maybe_ran = true;
    result.remaining = call.reply.integer;
    if (co_await replicated()) {
      result.status = CountDownStatus::counted;
      co_return result;
    }
    result.detail = fmt::format("fewer than {} replica(s) acknowledged it", replication_.replicas);
  }
  result.status = maybe_ran ? CountDownStatus::unknown : CountDownStatus::unreachable;
  co_return result;
}

Task<CallResult> LatchLock::remaining(const std::string& key) {
  LOCKCHECK_ASSERT(count_ > 0);  // the script counts what is missing of count_: with 0 every latch reads open
  std::vector<std::string> keys{key};
  std::vector<std::string> args{std::to_string(count_)};
  CallResult call = co_await eval(port_, node_, remaining_script(), std::move(keys), std::move(args));
  if (call.replied() && call.reply.is_error()) {
    throw RedisError(fmt::format("wait on latch '{}' failed: {}", key, call.reply.text));
  }
  if (call.replied()) require_count(call.reply, "wait on", key);
  co_return call;
}

Task<LatchWaitResult> LatchLock::wait(std::string key, Micros wait) {
  validate_lock_key(key);
  LOCKCHECK_ASSERT(count_ > 0);  // remaining() counts the missing of count_: with 0 every latch would read open
  LatchWaitResult result;
  const MonoTime give_up_at = clock_.monotonic_now() + wait;
  bool any_reply = false;
  // Re-polls with backoff (capped at delay_max): an opening is seen within one poll interval, whatever is lost.
  for (std::uint32_t attempt = 1; attempt <= options_.retry.max_attempts; ++attempt) {
    ++result.polls;
    const CallResult poll = co_await remaining(key);
    if (poll.replied()) {
      any_reply = true;
      if (poll.reply.integer <= 0) {
        result.status = LatchWaitStatus::opened;
        co_return result;
      }
    } else {
      result.detail = poll.detail;
    }
    const MonoTime now = clock_.monotonic_now();
    if (now >= give_up_at) break;
    co_await clock_.sleep(std::min(backoff_delay(options_.retry, entropy_, attempt), give_up_at - now));
  }
  result.status = any_reply ? LatchWaitStatus::timed_out : LatchWaitStatus::unreachable;
  if (result.detail.empty()) result.detail = "the latch stayed closed for the whole wait";
  co_return result;
}

}  // namespace lockcheck
