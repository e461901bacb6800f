#include "lockcheck/variants/token_wait_lock.hpp"

#include <fmt/format.h>

#include "lockcheck/assert.hpp"
#include "lockcheck/errors.hpp"

namespace lockcheck {

void validate_token_wait_options(const TokenWaitOptions& wait, const LockOptions& options) {
  // Its callers validated the lock options first: a quarter of a TTL that is not positive bounds nothing.
  LOCKCHECK_ASSERT(options.ttl > Millis::zero());
  if (wait.replicas < 1 || wait.replicas > 1000) {
    throw InvalidArgument(fmt::format("token-wait: replicas must be 1 .. 1000, not {}", wait.replicas));
  }
  if (wait.wait_timeout <= Millis::zero()) {
    throw InvalidArgument("token-wait: the WAIT timeout must be positive (0 would make WAIT block forever)");
  }
  if (wait.wait_timeout * 4 > options.ttl) {
    throw InvalidArgument(fmt::format("token-wait: the WAIT timeout ({} ms) must be at most a quarter of the TTL "
                                      "({} ms): it is spent from the lease",
                                      wait.wait_timeout.count(), options.ttl.count()));
  }
}

TokenWaitLock::TokenWaitLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, TokenWaitOptions wait,
                             std::size_t node)
    : SingleKeyLock(port, clock, entropy, options, node), wait_(wait) {
  validate_token_wait_options(wait_, options_);
}

Task<detail::SingleKeyLock::Attempt> TokenWaitLock::attempt(const std::string& key, const std::string& token,
                                                            bool after_lost_reply) {
  Attempt granted = co_await SingleKeyLock::attempt(key, token, after_lost_reply);
  if (!granted.granted) co_return granted;

  Attempt result;
  Command wait{"WAIT", std::to_string(wait_.replicas), std::to_string(wait_.wait_timeout.count())};
  result.call = co_await call(std::move(wait));
  // No reply: the key may hold our token on whichever node now serves it; the loop's next attempt reclaims
  // it and waits again, or its cleanup releases it.
  if (!result.call.replied()) co_return result;
  const Reply& reply = result.call.reply;
  if (reply.kind == Reply::Kind::integer && reply.integer >= wait_.replicas) {
    result.granted = true;
    co_return result;
  }
  LOCKCHECK_ASSERT(!result.granted);  // too few acknowledgements never count as a grant
  // Too few acknowledgements (or WAIT refused): the grant may vanish in a failover, so give it back.
  result.refused_because = reply.kind == Reply::Kind::integer
                               ? fmt::format("WAIT: {} of {} replicas acknowledged within {} ms", reply.integer,
                                             wait_.replicas, wait_.wait_timeout.count())
                               : fmt::format("WAIT failed: {}", reply.text);
  const ReleaseStatus given_back = co_await release_token(key, token);
  if (given_back == ReleaseStatus::unknown) {
    result.call = CallResult::failed(CallStatus::unknown, "WAIT got too few replicas and the release went unanswered");
  }
  co_return result;
}

}  // namespace lockcheck
