#include "lockcheck/variants/redlock.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "lockcheck/assert.hpp"
#include "lockcheck/errors.hpp"
#include "lockcheck/script.hpp"
#include "lockcheck/backoff.hpp"
#include "lockcheck/token_scripts.hpp"

namespace lockcheck {

Redlock::Redlock(Port& port, Clock& clock, Entropy& entropy, LockOptions options)
    : port_(port), clock_(clock), entropy_(entropy), options_(options) {
  validate_lock_options(options_);
  if (port_.node_count() == 0) throw InvalidArgument("redlock needs at least one node");
  for (std::size_t node = 0; node < port_.node_count(); ++node) nodes_.push_back(node);
}

Task<AcquireResult> Redlock::acquire(std::string key, Micros wait) {
  validate_lock_key(key);
  const MonoTime give_up_at = clock_.monotonic_now() + std::max(wait, Micros::zero());
  const std::string ttl_ms = std::to_string(options_.ttl.count());
  const Micros ttl_us = std::chrono::duration_cast<Micros>(options_.ttl);
  const Micros margin = drift_margin(options_);

  AcquireResult result;
  bool any_reply = false;
  while (result.attempts < options_.retry.max_attempts) {
    ++result.attempts;
    // A token of its own per attempt: the undo of a failed attempt is not awaited everywhere, and its release,
    // arriving late at a slow node, must not delete what a later attempt of this acquire set there.
    const std::string token = entropy_.token_hex();
    std::vector<NodeCommand> commands = set_everywhere(key, token, ttl_ms);
    const MonoTime started = clock_.monotonic_now();  // before the first request leaves
    // Stop waiting once a quorum granted or can no longer grant: a slow node then costs nothing. A late
    // grant on a node not awaited is undone by the release below, or ends with its TTL. "Can no longer
    // grant" waits for at least one reply, so that busy (someone answered) and unreachable (no one did)
    // come out as when every node was awaited.
    const std::size_t needed = quorum(), total = commands.size();
    DecidedPredicate decided = [needed, total](const SettledResults& settled) {
      std::size_t granted = 0, refused = 0, answered = 0;
      for (const auto& result : settled) {
        if (!result) continue;
        answered += result->replied() ? 1 : 0;
        if (result->replied() && result->reply == Reply::ok()) ++granted;
        else ++refused;
      }
      return granted >= needed || (answered > 0 && total - refused < needed);
    };
    std::vector<CallResult> replies = co_await port_.fan_out_until(std::move(commands), std::move(decided));

    std::size_t granted = 0, held = 0;
    for (const CallResult& reply : replies) {
      any_reply = any_reply || reply.replied();
      if (reply.replied() && reply.reply.is_error()) {
        co_await release_everywhere(key, token);
        throw RedisError(fmt::format("acquire of lock '{}' failed: {}", key, reply.reply.text));
      }
      if (reply.replied() && reply.reply == Reply::ok()) ++granted;
      if (reply.replied() && reply.reply.is_nil()) ++held;  // SET NX: the key was there
    }
    // Nodes holding someone's key left too few for a quorum: the lock was held (lost requests alone are not).
    if (held > nodes_.size() - quorum()) result.refused_at = clock_.monotonic_now();
    Lease lease{key, token, started, started + ttl_us - margin, 0, false, &clock_};
    LOCKCHECK_ASSERT(granted + held <= nodes_.size() && 2 * quorum() > nodes_.size());  // a majority, never more votes than nodes
    if (granted >= quorum() && clock_.monotonic_now() < lease.valid_until) {
      result.status = AcquireStatus::acquired;
      result.lease = std::move(lease);
      co_return result;
    }
    result.detail = granted >= quorum() ? "a quorum was granted but no validity was left"
                                        : fmt::format("{} of {} nodes granted; {} needed", granted, nodes_.size(), quorum());
    co_await undo_attempt(key, token, replies);

    const MonoTime now = clock_.monotonic_now();
    if (now >= give_up_at) break;
    // Contenders whose votes split retry at random moments spread over as long as an attempt took (Redlock's
    // "retry after a random delay, to desynchronize"): a backoff of a few milliseconds against attempts that a
    // slow node stretches to hundreds keeps them in step, splitting every vote again.
    const auto attempt_us = static_cast<std::uint64_t>(std::max<Micros::rep>(0, (now - started).count()));
    const Micros spread(static_cast<Micros::rep>(entropy_.uniform(attempt_us + 1)));
    co_await clock_.sleep(std::min(backoff_delay(options_.retry, entropy_, result.attempts) + spread, give_up_at - now));
  }
  result.status = any_reply ? AcquireStatus::busy : AcquireStatus::unreachable;
  LOCKCHECK_ASSERT(!result.lease);  // a failed acquire hands out nothing to hold
  co_return result;
}

std::vector<NodeCommand> Redlock::set_everywhere(const std::string& key, const std::string& token,
                                                const std::string& ttl_ms) const {
  std::vector<NodeCommand> commands;
  commands.reserve(nodes_.size());
  for (std::size_t node : nodes_) {
    // Built in place: an initializer list would copy each argument twice (the token allocates each time).
    Command set;
    set.reserve(6);
    for (std::string_view argument : {std::string_view("SET"), std::string_view(key), std::string_view(token),
                                      std::string_view("NX"), std::string_view("PX"), std::string_view(ttl_ms)}) {
      set.emplace_back(argument);
    }
    commands.push_back({node, std::move(set)});
  }
  LOCKCHECK_ASSERT(commands.size() == nodes_.size());
  return commands;
}

Task<ReleaseStatus> Redlock::release_everywhere(const std::string& key, const std::string& token) {
  return release_on(key, token, nodes_, 0);
}

Task<ReleaseStatus> Redlock::release_on(const std::string& key, const std::string& token, std::vector<std::size_t> pending,
                                        std::uint32_t rounds_done) {
  bool released_somewhere = false, lost_reply = false;
  const std::vector<std::string> keys{key};
  const std::vector<std::string> args{token};
  for (std::uint32_t round = rounds_done; round < options_.retry.idempotent_attempts && !pending.empty(); ++round) {
    if (round > 0) co_await clock_.sleep(options_.retry.delay_min);
    std::vector<CallResult> replies = co_await eval_on(port_, pending, token_release_script(), keys, args);
    std::vector<std::size_t> unanswered;
    for (std::size_t i = 0; i < replies.size(); ++i) {
      if (!replies[i].replied()) {
        unanswered.push_back(pending[i]);
        lost_reply = lost_reply || replies[i].status == CallStatus::unknown;
      } else if (replies[i].reply.is_integer(1)) {
        released_somewhere = true;
      }
    }
    pending = std::move(unanswered);
  }
  LOCKCHECK_ASSERT(pending.size() <= nodes_.size());
  if (released_somewhere) co_return ReleaseStatus::released;
  // Nodes that never answered keep our token at most until its TTL runs out.
  if (!pending.empty()) co_return ReleaseStatus::unknown;
  co_return lost_reply ? ReleaseStatus::released : ReleaseStatus::not_owned;
}

Task<void> Redlock::undo_attempt(const std::string& key, const std::string& token,
                                 const std::vector<CallResult>& replies) {
  LOCKCHECK_ASSERT(replies.size() == nodes_.size());
  // A grant whose reply was lost or not awaited may sit on any node that did not refuse, so each is sent the
  // release. Only the nodes that granted are awaited (and retried when their answer is lost): they answered a
  // moment ago. A node that never answered (down, cut off, slow) would cost a command timeout per round, and
  // meanwhile this client and every other whose vote split with it would hold nothing and let nobody else
  // acquire: a minority down would stall everyone past the TTL. Our key there ends with its TTL.
  const std::vector<std::string> keys{key};
  const std::vector<std::string> args{token};
  std::vector<NodeCommand> commands;
  std::vector<std::size_t> sent_to;  // commands[i]'s node (the commands move into the fan-out)
  std::vector<bool> granted;
  for (std::size_t i = 0; i < replies.size(); ++i) {
    if (replies[i].replied() && replies[i].reply.is_nil()) continue;  // SET NX ran and set nothing of ours
    // EVAL, not EVALSHA: a NOSCRIPT would need a second round trip that a not-awaited node never gets.
    commands.push_back({nodes_[i], eval_source_command(token_release_script(), keys, args)});
    sent_to.push_back(nodes_[i]);
    granted.push_back(replies[i].replied() && replies[i].reply == Reply::ok());
  }
  DecidedPredicate decided = [granted](const SettledResults& settled) {
    for (std::size_t i = 0; i < settled.size(); ++i) {
      if (granted[i] && !settled[i]) return false;
    }
    return true;
  };
  const std::vector<CallResult> released = co_await port_.fan_out_until(std::move(commands), std::move(decided));
  std::vector<std::size_t> unanswered;
  for (std::size_t i = 0; i < released.size(); ++i) {
    if (granted[i] && !released[i].replied()) unanswered.push_back(sent_to[i]);
  }
  // A granting node whose answer was lost: the release's own retries, on it alone, after this first round.
  co_await release_on(key, token, std::move(unanswered), 1);
}

Task<ReleaseStatus> Redlock::release(Lease& lease) {
  LOCKCHECK_ASSERT(!lease.token.empty());  // only a granted lease is released
  lease.known_lost = true;  // from here on the lease is never counted held, whatever the replies
  return release_everywhere(lease.key, lease.token);
}

Task<RenewStatus> Redlock::renew(Lease& lease) {
  if (lease.known_lost) co_return RenewStatus::lost;
  const Micros ttl_us = std::chrono::duration_cast<Micros>(options_.ttl);
  const std::vector<std::string> keys{lease.key};
  const std::vector<std::string> args{lease.token, std::to_string(options_.ttl.count())};
  // As acquisition does, stop waiting once a quorum extended or can no longer extend: a paused node then
  // costs a renewal nothing. Nodes not awaited count as unanswered below (the old validity stands). A node
  // answering NOSCRIPT (first use, restart) is not an answer until its EVAL: that round awaits every node.
  const std::size_t needed = quorum(), total = nodes_.size();
  DecidedPredicate decided = [needed, total](const SettledResults& settled) {
    std::size_t extended = 0, refused = 0;
    for (const auto& result : settled) {
      if (!result || !result->replied()) continue;
      if (result->reply.is_integer(1)) ++extended;
      else ++refused;
    }
    return extended >= needed || total - refused < needed;
  };
  const MonoTime started = clock_.monotonic_now();
  std::vector<CallResult> replies = co_await eval_on(port_, nodes_, token_renew_script(), keys, args, std::move(decided));
  std::size_t extended = 0, unanswered = 0;
  for (const CallResult& reply : replies) {
    if (!reply.replied()) ++unanswered;
    else if (reply.reply.is_integer(1)) ++extended;
  }
  const MonoTime valid_until = started + ttl_us - drift_margin(options_);
  LOCKCHECK_ASSERT(extended + unanswered <= nodes_.size());
  if (extended >= quorum() && clock_.monotonic_now() < valid_until) {
    lease.valid_until = std::max(lease.valid_until, valid_until);
    co_return RenewStatus::renewed;
  }
  if (extended + unanswered >= quorum()) co_return RenewStatus::unknown;  // the old validity still stands
  lease.known_lost = true;
  co_return RenewStatus::lost;
}

}  // namespace lockcheck
