#include "lockcheck/broken/redisson_latch.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "lockcheck/backoff.hpp"
#include "lockcheck/errors.hpp"
#include "lockcheck/script.hpp"
#include "lockcheck/scripts.hpp"

namespace lockcheck::broken {
namespace {

const Script& set_count_script() {
  static const Script script(scripts::redisson_latch_set_count);
  return script;
}
const Script& count_down_script() {
  static const Script script(scripts::redisson_latch_count_down);
  return script;
}

// GET's reply as a count: a missing key is 0 (Redisson's getCount), as is anything that is not a number.
std::int64_t count_of(const Reply& reply) {
  std::int64_t value = 0;
  if (reply.is_nil()) return 0;
  const std::string& text = reply.text;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

}  // namespace

RedissonLatch::RedissonLatch(Port& port, Clock& clock, Entropy& entropy, const LockOptions& options,
                             std::uint32_t count, std::size_t node)
    : port_(port), clock_(clock), entropy_(entropy), options_(options), count_(count), node_(node) {
  if (count_ == 0) throw InvalidArgument("redisson-latch: a latch needs a count of at least 1");
  validate_lock_options(options_);
  if (node_ >= port_.node_count()) throw InvalidArgument("redisson-latch: no such node");
}

Task<void> RedissonLatch::set_count_once(const std::string& key) {
  if (set_keys_.count(key) != 0) co_return;
  for (std::uint32_t i = 0; i < options_.retry.idempotent_attempts; ++i) {
    if (i > 0) co_await clock_.sleep(options_.retry.delay_min);
    std::vector<std::string> keys{key};
    std::vector<std::string> args{std::to_string(count_), channel_of(key)};
    const CallResult call = co_await eval(port_, node_, set_count_script(), std::move(keys), std::move(args));
    if (!call.replied()) continue;
    if (call.reply.is_error()) throw RedisError(fmt::format("trySetCount of latch '{}' failed: {}", key, call.reply.text));
    set_keys_.insert(key);
    co_return;
  }
  // Without a reply the application goes on, as one that ignores trySetCount's result would.
}

Task<void> RedissonLatch::set_up(std::string key) {
  validate_lock_key(key);
  co_await set_count_once(key);
}

Task<CountDownResult> RedissonLatch::count_down(std::string key, std::string /*participant*/, Micros /*budget*/) {
  validate_lock_key(key);
  co_await set_count_once(key);
  CountDownResult result;
  bool maybe_ran = false;
  // Redisson sends a command again when its reply does not come (its retryAttempts): the DECR again.
  for (std::uint32_t i = 0; i < options_.retry.idempotent_attempts; ++i) {
    if (i > 0) co_await clock_.sleep(options_.retry.delay_min);
    ++result.attempts;
    std::vector<std::string> keys{key};
    std::vector<std::string> args{channel_of(key)};
    const CallResult call = co_await eval(port_, node_, count_down_script(), std::move(keys), std::move(args));
    if (!call.replied()) {
      maybe_ran = maybe_ran || call.status == CallStatus::unknown;
      result.detail = call.detail;
      continue;
    }
    if (call.reply.is_error()) throw RedisError(fmt::format("countDown of latch '{}' failed: {}", key, call.reply.text));
    result.status = CountDownStatus::counted;
    result.remaining = call.reply.integer;
    co_return result;
  }
  result.status = maybe_ran ? CountDownStatus::unknown : CountDownStatus::unreachable;
  co_return result;
}

Task<bool> RedissonLatch::subscribed_to(const std::string& key) {
  if (pubsub_unavailable_ || port_.shard_channels()) co_return false;
  if (subscribed_.count(key) != 0) co_return true;
  const CallResult subscribed = co_await port_.subscribe(node_, channel_of(key));
  if (subscribed.status == CallStatus::not_sent && subscribed.detail == "this port has no pub/sub") {
    pubsub_unavailable_ = true;
  }
  if (!subscribed.replied() || subscribed.reply.is_error()) co_return false;
  subscribed_.insert(key);
  co_return true;
}

Task<LatchWaitResult> RedissonLatch::wait(std::string key, Micros wait) {
  validate_lock_key(key);
  co_await set_count_once(key);
  LatchWaitResult result;
  const MonoTime give_up_at = clock_.monotonic_now() + wait;
  bool any_reply = false;
  for (std::uint32_t attempt = 1; attempt <= options_.retry.max_attempts; ++attempt) {
    // Subscribed before the count is read, so a zero announced in between is not missed.
    const bool listening = co_await subscribed_to(key);
    ++result.polls;
    Command get{std::string("GET"), key};  // not braced inside co_await: GCC's coroutine lowering trips on it
    const CallResult read = co_await port_.call(node_, std::move(get));
    if (read.replied() && !read.reply.is_error()) {
      any_reply = true;
      if (count_of(read.reply) <= 0) {
        result.status = LatchWaitStatus::opened;
        co_return result;
      }
    } else {
      result.detail = read.replied() ? read.reply.text : read.detail;
    }
    const MonoTime now = clock_.monotonic_now();
    if (now >= give_up_at) break;
    const Micros left = give_up_at - now;
    if (listening && read.replied()) {
      // Redisson waits for the zero message for the rest of the budget: a lost message costs all of it.
      const CallResult message = co_await port_.await_message(node_, channel_of(key), left);
      if (!message.replied()) subscribed_.erase(key);  // timed out or broken: subscribe again before reading
    } else {
      co_await clock_.sleep(std::min(backoff_delay(options_.retry, entropy_, attempt), left));
    }
  }
  result.status = any_reply ? LatchWaitStatus::timed_out : LatchWaitStatus::unreachable;
  if (result.detail.empty()) result.detail = "the latch stayed closed for the whole wait";
  co_return result;
}

}  // namespace lockcheck::broken
