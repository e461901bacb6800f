#include "lockcheck/latch.hpp"

#include <fmt/format.h>

#include "lockcheck/errors.hpp"

namespace lockcheck {
namespace {

LockOptions poll_options(const LatchOptions& options) {
  LockOptions lock;
  lock.retry = options.retry;
  return lock;
}

}  // namespace

Latch::Latch(Client& client, std::string key, std::uint32_t count, LatchOptions options)
    : client_(client), key_(std::move(key)), options_(options),
      latch_(client.port(), client.clock(), client.entropy(), poll_options(options), count,
             LatchReplication{options.replicas, options.replica_timeout}) {
  validate_lock_key(key_);
  if (options_.count_down_budget < Micros::zero() || options_.wait_limit < Micros::zero()) {
    throw InvalidArgument("latch: budgets must not be negative");
  }
}

void Latch::count_down() { count_down_as(client_.entropy().token_hex()); }

void Latch::count_down_as(const std::string& participant) {
  const CountDownResult result = run_sync(latch_.count_down(key_, participant, options_.count_down_budget));
  switch (result.status) {
    case CountDownStatus::counted: return;
    case CountDownStatus::unreachable:
      throw ConnectionError(fmt::format("latch '{}': Redis unreachable: {}", key_, result.detail));
    case CountDownStatus::unknown:
      throw UnknownOutcome(fmt::format("latch '{}': count_down may not have counted: {}", key_, result.detail));
  }
}

bool Latch::try_wait() { return wait_micros(Micros::zero()); }

bool Latch::wait_micros(Micros timeout) {
  const LatchWaitResult result = run_sync(latch_.wait(key_, timeout));
  switch (result.status) {
    case LatchWaitStatus::opened: return true;
    case LatchWaitStatus::timed_out: return false;
    case LatchWaitStatus::unreachable:
      throw ConnectionError(fmt::format("latch '{}': Redis unreachable: {}", key_, result.detail));
  }
  return false;
}

void Latch::wait() {
  if (!wait_micros(options_.wait_limit)) {
    throw LockTimeout(fmt::format("latch '{}' stayed closed for the whole wait limit", key_));
  }
}

void Latch::arrive_and_wait() {
  count_down();
  wait();
}

}  // namespace lockcheck
