#include "lockcheck/broken/rw_two_keys_lock.hpp"

#include "lockcheck/scripts.hpp"
#include "lockcheck/token_scripts.hpp"

namespace lockcheck::broken {
namespace {
}  // namespace

Task<AcquireResult> RwTwoKeysLock::acquire_shared(std::string key, Micros wait) {
  return acquire_loop(std::move(key), wait, options_.ttl, true);
}

Task<detail::SingleKeyLock::Attempt> RwTwoKeysLock::attempt(const std::string& key, const std::string& token,
                                                            bool after_lost_reply) {
  (void)after_lost_reply;  // the script counts "the write key already holds my token" as granted
  static const Script script(scripts::rw_two_keys_acquire_write);
  std::vector<std::string> keys{read_key(key), write_key(key)};
  std::vector<std::string> args{token, ttl_ms()};
  return script_attempt(script, std::move(keys), std::move(args));
}

Task<detail::SingleKeyLock::Attempt> RwTwoKeysLock::attempt_shared(const std::string& key, const std::string& token,
                                                                   bool after_lost_reply, Millis ttl) {
  // The reader's token is not stored anywhere; a retry after a lost reply counts one reader more.
  (void)token;
  (void)after_lost_reply;
  static const Script script(scripts::rw_two_keys_acquire_read);
  std::vector<std::string> keys{read_key(key), write_key(key)};
  std::vector<std::string> args{std::to_string(ttl.count())};
  return script_attempt(script, std::move(keys), std::move(args));
}

Task<CallResult> RwTwoKeysLock::release_call(const std::string& key, const std::string& token,
                                             const Request& /*request*/) {
  std::vector<std::string> keys{write_key(key)};
  std::vector<std::string> args{token};
  return run_script(token_release_script(), std::move(keys), std::move(args));
}

Task<CallResult> RwTwoKeysLock::renew_call(const std::string& key, const std::string& token) {
  std::vector<std::string> keys{write_key(key)};
  std::vector<std::string> args{token, ttl_ms()};
  return run_script(token_renew_script(), std::move(keys), std::move(args));
}

Task<ReleaseStatus> RwTwoKeysLock::release(Lease& lease) {
  if (lease.shared) co_return co_await release_shared(lease);
  co_return co_await SingleKeyLock::release(lease);
}

Task<ReleaseStatus> RwTwoKeysLock::release_shared(Lease& lease) {
  lease.known_lost = true;
  for (std::uint32_t i = 0; i < options_.retry.idempotent_attempts; ++i) {
    if (i > 0) co_await clock_.sleep(options_.retry.delay_min);
    Command del{"DEL", read_key(lease.key)};  // THE FLAW: frees every reader, not just this one
    CallResult result = co_await call(std::move(del));
    if (!result.replied()) continue;
    if (result.reply.is_error()) throw_error_reply("release", lease.key, result.reply);
    co_return result.reply.is_integer(1) ? ReleaseStatus::released : ReleaseStatus::not_owned;
  }
  co_return ReleaseStatus::unknown;
}

Task<RenewStatus> RwTwoKeysLock::renew(Lease& lease) {
  if (!lease.shared) co_return co_await SingleKeyLock::renew(lease);
  if (lease.known_lost) co_return RenewStatus::lost;
  const MonoTime sent_at = clock_.monotonic_now();
  Command pexpire{"PEXPIRE", read_key(lease.key), ttl_ms()};
  CallResult result = co_await call(std::move(pexpire));
  if (!result.replied()) co_return RenewStatus::unknown;
  if (result.reply.is_error()) throw_error_reply("renew", lease.key, result.reply);
  if (!result.reply.is_integer(1)) {
    lease.known_lost = true;
    co_return RenewStatus::lost;
  }
  lease.valid_until = std::max(lease.valid_until, sent_at + std::chrono::duration_cast<Micros>(options_.ttl) -
                                                      drift_margin(options_));
  co_return RenewStatus::renewed;
}

}  // namespace lockcheck::broken
