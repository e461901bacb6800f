// Sorted-set ranges: ZRANGE (by rank, BYSCORE, BYLEX; REV, LIMIT, WITHSCORES) and the older forms that
// preset its options (ZREVRANGE, ZRANGEBYSCORE, ZREVRANGEBYSCORE, ZRANGEBYLEX, ZREVRANGEBYLEX), ZCOUNT,
// ZLEXCOUNT, ZREMRANGEBYSCORE/RANK/LEX and ZRANGESTORE. Options, then the range, then the key: Redis 7.0's order.
#include <algorithm>

#include "redis/types/zset/zset_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/util/numbers.hpp"
#include "redis/util/text.hpp"
#include "redis/types/zset/zset_access.hpp"

namespace lockcheck::mock::cmd {
namespace {

enum class RangeBy { unset, rank, score, lex };

struct RangeRequest {
  RangeBy by = RangeBy::unset;
  bool rev = false;
  bool rev_preset = false;  // the command's name fixes the direction: REV is a syntax error
  bool with_scores = false;
  std::int64_t offset = 0;
  std::int64_t limit = -1;  // -1: no LIMIT (or a LIMIT with a negative count)
};

// The items of `zset` selected by `request` over args[2], args[3] (min and max, or start and stop).
std::optional<std::vector<const ZItem*>> select_range(const ZSet& zset, const RangeRequest& request, const Command& args,
                                                      Reply& error) {
  std::vector<const ZItem*> ordered;
  for (const ZItem& item : zset.by_score) ordered.push_back(&item);
  if (request.rev) std::reverse(ordered.begin(), ordered.end());
  std::vector<const ZItem*> chosen;
  if (request.by == RangeBy::rank) {
    auto start = parse_int64(args[2]);
    auto stop = parse_int64(args[3]);
    if (!start || !stop) return error = err::not_integer(), std::nullopt;
    const auto size = static_cast<std::int64_t>(ordered.size());
    const std::int64_t from = *start < 0 ? std::max<std::int64_t>(size + *start, 0) : *start;
    const std::int64_t to = *stop < 0 ? size + *stop : std::min(*stop, size - 1);
    for (std::int64_t i = from; i <= to && i < size; ++i) chosen.push_back(ordered[static_cast<std::size_t>(i)]);
    return chosen;
  }
  // With REV the first bound given is the maximum.
  const std::string& min_text = request.rev ? args[3] : args[2];
  const std::string& max_text = request.rev ? args[2] : args[3];
  if (request.by == RangeBy::lex) {
    auto range = parse_lex_range(min_text, max_text);
    if (!range) return error = err::reply(kNotLexRange), std::nullopt;
    if (request.rev) std::reverse(ordered.begin(), ordered.end());  // lex_run walks score order itself
    return lex_run(ordered, *range, request.rev, request.offset, request.limit);
  }
  auto range = parse_score_range(min_text, max_text);
  if (!range) return error = err::reply(kNotFloatRange), std::nullopt;
  for (const ZItem* item : ordered) {
    if (range->contains(item->first)) chosen.push_back(item);
  }
  if (request.offset < 0) chosen.clear();
  const auto skip = std::min<std::size_t>(chosen.size(), static_cast<std::size_t>(std::max<std::int64_t>(request.offset, 0)));
  chosen.erase(chosen.begin(), chosen.begin() + static_cast<std::ptrdiff_t>(skip));
  if (request.limit >= 0 && static_cast<std::size_t>(request.limit) < chosen.size()) {
    chosen.resize(static_cast<std::size_t>(request.limit));
  }
  return chosen;
}

// zrangeGenericCommand up to the reply: options from args[4] on (WITHSCORES only when not storing), then the
// range, then the key. The items selected (none for a missing key), or nullopt with `error` set.
std::optional<std::vector<const ZItem*>> parse_and_select(Keyspace& keys, const Command& args, RangeRequest& request,
                                                          bool store, Reply& error) {
  for (std::size_t i = 4; i < args.size(); ++i) {
    if (!store && iequals(args[i], "withscores")) {
      request.with_scores = true;
    } else if (iequals(args[i], "limit") && i + 2 < args.size()) {
      auto offset = parse_int64(args[i + 1]);
      auto count = parse_int64(args[i + 2]);
      if (!offset || !count) return error = err::not_integer(), std::nullopt;
      request.offset = *offset;
      request.limit = *count;
      i += 2;
    } else if (!request.rev_preset && !request.rev && iequals(args[i], "rev")) {
      request.rev = true;
    } else if (request.by == RangeBy::unset && iequals(args[i], "bylex")) {
      request.by = RangeBy::lex;
    } else if (request.by == RangeBy::unset && iequals(args[i], "byscore")) {
      request.by = RangeBy::score;
    } else {
      return error = err::syntax(), std::nullopt;
    }
  }
  if (request.by == RangeBy::unset) request.by = RangeBy::rank;
  if (request.limit != -1 && request.by == RangeBy::rank) {  // as 7.0: LIMIT 0 -1 passes
    return error = Reply::error("ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX"),
           std::nullopt;
  }
  if (request.with_scores && request.by == RangeBy::lex) {
    return error = Reply::error("ERR syntax error, WITHSCORES not supported in combination with BYLEX"), std::nullopt;
  }
  const ZSet empty;
  if (!select_range(empty, request, args, error)) return std::nullopt;  // the range is checked before the key
  bool wrong_type = false;
  ZSet* zset = find_zset(keys, args[1], wrong_type);
  if (wrong_type) return error = err::wrong_type(), std::nullopt;
  if (zset == nullptr) return std::vector<const ZItem*>{};
  return select_range(*zset, request, args, error);
}

Reply range_command(CommandContext& ctx, RangeRequest request) {
  Reply error;
  auto items = parse_and_select(ctx.keys, ctx.args, request, /*store=*/false, error);
  if (!items) return error;
  return scored_reply(*items, request.with_scores, ctx.resp);
}

// ZCOUNT / ZLEXCOUNT / ZREMRANGEBY*: the range over args[2], args[3]; then count or remove.
Reply over_range(CommandContext& ctx, RangeBy by, bool remove) {
  RangeRequest request{.by = by};
  Reply error;
  const ZSet empty;
  if (!select_range(empty, request, ctx.args, error)) return error;
  bool wrong_type = false;
  ZSet* zset = find_zset(ctx.keys, ctx.args[1], wrong_type);
  if (wrong_type) return err::wrong_type();
  if (zset == nullptr) return Reply::integer_reply(0);
  const auto chosen = *select_range(*zset, request, ctx.args, error);
  if (!remove) return Reply::integer_reply(static_cast<std::int64_t>(chosen.size()));
  return Reply::integer_reply(remove_items(ctx.keys, ctx.args[1], *zset, chosen));
}

}  // namespace

Reply zrange(CommandContext& ctx) { return range_command(ctx, {}); }
Reply zrevrange(CommandContext& ctx) { return range_command(ctx, {.by = RangeBy::rank, .rev = true, .rev_preset = true}); }
Reply zrangebyscore(CommandContext& ctx) { return range_command(ctx, {.by = RangeBy::score, .rev_preset = true}); }
Reply zrevrangebyscore(CommandContext& ctx) {
  return range_command(ctx, {.by = RangeBy::score, .rev = true, .rev_preset = true});
}
Reply zrangebylex(CommandContext& ctx) { return range_command(ctx, {.by = RangeBy::lex, .rev_preset = true}); }
Reply zrevrangebylex(CommandContext& ctx) {
  return range_command(ctx, {.by = RangeBy::lex, .rev = true, .rev_preset = true});
}
// ZRANGESTORE dst src min max [BYSCORE|BYLEX] [REV] [LIMIT offset count]: ZRANGE's selection without the
// destination argument, stored (an empty selection deletes dst).
Reply zrangestore(CommandContext& ctx) {
  Command source_args{ctx.args[0]};
  source_args.insert(source_args.end(), ctx.args.begin() + 2, ctx.args.end());
  RangeRequest request;
  Reply error;
  auto items = parse_and_select(ctx.keys, source_args, request, /*store=*/true, error);
  if (!items) return error;
  ZSet result;
  for (const ZItem* item : *items) zset_put(result, item->second, item->first);
  return store_zset(ctx.keys, ctx.args[1], std::move(result));
}
Reply zcount(CommandContext& ctx) { return over_range(ctx, RangeBy::score, false); }
Reply zlexcount(CommandContext& ctx) { return over_range(ctx, RangeBy::lex, false); }
Reply zremrangebyscore(CommandContext& ctx) { return over_range(ctx, RangeBy::score, true); }
Reply zremrangebyrank(CommandContext& ctx) { return over_range(ctx, RangeBy::rank, true); }
Reply zremrangebylex(CommandContext& ctx) { return over_range(ctx, RangeBy::lex, true); }

}  // namespace lockcheck::mock::cmd
