// BLPOP, BRPOP, BLMOVE, BRPOPLPUSH, BZPOPMIN, BZPOPMAX. Each tries at once; with nothing to pop it blocks
// (Node::block) unless it runs in EXEC, where it answers at once, as Redis does (scripts may not call them).
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "redis/server/blocking_pop.hpp"
#include "redis/commands/blocking/blocking_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/types/list/list_access.hpp"
#include "redis/server/node.hpp"
#include "redis/util/numbers.hpp"
#include "redis/types/zset/zset_access.hpp"

namespace lockcheck::mock::cmd {
namespace {

// getTimeoutFromObjectOrReply in seconds: a long double, times 1000, truncated. An overflowing product
// becomes LLONG_MIN on x86, so 7.0 calls it negative. Returns the deadline (none for 0) or an error.
std::optional<std::optional<std::int64_t>> parse_timeout(const std::string& text, std::int64_t now_ms, Reply& error) {
  errno = 0;
  char* end = nullptr;
  const long double seconds = text.empty() || std::isspace(static_cast<unsigned char>(text[0]))
                                  ? std::numeric_limits<long double>::quiet_NaN()
                                  : std::strtold(text.c_str(), &end);
  if (std::isnan(seconds) || end == nullptr || *end != '\0' || errno == ERANGE) {
    return error = Reply::error("ERR timeout is not a float or out of range"), std::nullopt;
  }
  // Rounded up, as 7.0.15's getTimeoutFromObjectOrReply does: 0.001 s is 1 ms, not 0 (which blocks forever).
  const long double ms = std::ceil(seconds * 1000.0L);
  constexpr long double kLimit = 9.2233720368547758e18L;
  const std::int64_t timeout_ms = (ms >= kLimit || ms < -kLimit) ? std::numeric_limits<std::int64_t>::min()
                                                                  : static_cast<std::int64_t>(ms);
  if (timeout_ms < 0) return error = Reply::error("ERR timeout is negative"), std::nullopt;
  if (timeout_ms == 0) return std::optional<std::int64_t>{};
  if (timeout_ms > std::numeric_limits<std::int64_t>::max() - now_ms) {
    return error = Reply::error("ERR timeout is out of range"), std::nullopt;
  }
  return std::optional<std::int64_t>{now_ms + timeout_ms};
}

// BLPOP/BRPOP keys... : the first non-empty list, [key, element]; a wrong type stops the scan.
std::optional<Reply> pop_first_list(CommandContext& ctx, bool left) {
  for (std::size_t i = 1; i + 1 < ctx.args.size(); ++i) {
    bool wrong_type = false;
    List* list = find_list(ctx.keys, ctx.args[i], wrong_type);
    if (wrong_type) return err::wrong_type();
    if (list == nullptr || list->empty()) continue;
    std::string element = left ? std::move(list->front()) : std::move(list->back());
    if (left) list->pop_front();
    else list->pop_back();
    AnnouncedAs announced(ctx.keys, left ? "lpop" : "rpop");
    if (list->empty()) ctx.keys.remove(ctx.args[i]);
    else ctx.keys.modified(ctx.args[i]);
    return Reply::array({Reply::bulk(ctx.args[i]), Reply::bulk(std::move(element))});
  }
  return std::nullopt;
}

std::optional<Reply> try_blpop(CommandContext& ctx) { return pop_first_list(ctx, true); }
std::optional<Reply> try_brpop(CommandContext& ctx) { return pop_first_list(ctx, false); }

// BZPOPMIN/BZPOPMAX keys... : [key, member, score] from the first non-empty sorted set.
std::optional<Reply> pop_first_zset(CommandContext& ctx, bool from_max) {
  for (std::size_t i = 1; i + 1 < ctx.args.size(); ++i) {
    bool wrong_type = false;
    ZSet* zset = find_zset(ctx.keys, ctx.args[i], wrong_type);
    if (wrong_type) return err::wrong_type();
    if (zset == nullptr || zset->by_score.empty()) continue;
    const ZItem* item = from_max ? &*zset->by_score.rbegin() : &*zset->by_score.begin();
    Reply reply = Reply::array({Reply::bulk(ctx.args[i]), Reply::bulk(item->second),
                                Reply::double_reply(format_double(item->first))});
    AnnouncedAs announced(ctx.keys, from_max ? "zpopmax" : "zpopmin");
    remove_items(ctx.keys, ctx.args[i], *zset, {item});
    return reply;
  }
  return std::nullopt;
}

std::optional<Reply> try_bzpopmin(CommandContext& ctx) { return pop_first_zset(ctx, false); }
std::optional<Reply> try_bzpopmax(CommandContext& ctx) { return pop_first_zset(ctx, true); }

// BLMOVE source destination LEFT|RIGHT LEFT|RIGHT timeout (sides checked by the handler).
std::optional<Reply> try_blmove(CommandContext& ctx) {
  Reply reply = move_list_element(ctx.keys, ctx.args[1], ctx.args[2], *parse_list_side(ctx.args[3]),
                                  *parse_list_side(ctx.args[4]));
  if (reply.is_nil()) return std::nullopt;
  return reply;
}

std::optional<Reply> try_brpoplpush(CommandContext& ctx) {
  Reply reply = move_list_element(ctx.keys, ctx.args[1], ctx.args[2], false, true);
  if (reply.is_nil()) return std::nullopt;
  return reply;
}

Reply blocking(CommandContext& ctx, PopAttempt attempt) { return pop_or_block(ctx, attempt, ctx.args.back()); }

}  // namespace

Reply blpop(CommandContext& ctx) { return blocking(ctx, try_blpop); }
Reply brpop(CommandContext& ctx) { return blocking(ctx, try_brpop); }
Reply bzpopmin(CommandContext& ctx) { return blocking(ctx, try_bzpopmin); }
Reply bzpopmax(CommandContext& ctx) { return blocking(ctx, try_bzpopmax); }
Reply brpoplpush(CommandContext& ctx) { return pop_or_block(ctx, try_brpoplpush, ctx.args.back(), /*moves=*/true); }
Reply blmove(CommandContext& ctx) {
  if (!parse_list_side(ctx.args[3]) || !parse_list_side(ctx.args[4])) return err::syntax();
  return pop_or_block(ctx, try_blmove, ctx.args.back(), /*moves=*/true);
}

}  // namespace lockcheck::mock::cmd

namespace lockcheck::mock {

Reply pop_or_block(CommandContext& ctx, PopAttempt attempt, const std::string& timeout_seconds, bool moves) {
  Reply error;
  auto deadline = cmd::parse_timeout(timeout_seconds, ctx.keys.now_ms(), error);
  if (!deadline) return error;
  if (std::optional<Reply> reply = attempt(ctx)) return std::move(*reply);
  if (!ctx.node.can_block(ctx.session, ctx.in_script)) {
    // Redis's DENY_BLOCKING (a script, EXEC) answers BLMOVE/BRPOPLPUSH with a null bulk; a node without a
    // transport for late replies answers as the timeout would: a null array for every blocking pop.
    const bool denied = ctx.in_script || ctx.session.running_exec;
    return denied && moves ? Reply::nil() : Reply::null_array();
  }
  ctx.node.block(ctx.session, ctx.args, attempt, *deadline);
  return Reply::nil();  // not sent: the transport waits for the node's late reply
}

}  // namespace lockcheck::mock
