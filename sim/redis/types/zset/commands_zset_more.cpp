// ZRANK, ZREVRANK, ZINCRBY, ZPOPMIN, ZPOPMAX, ZMSCORE.
#include <algorithm>
#include <iterator>

#include "redis/types/zset/zset_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/util/numbers.hpp"
#include "redis/types/pop_count.hpp"
#include "redis/types/zset/zset_access.hpp"

namespace lockcheck::mock::cmd {
namespace {

Reply rank(CommandContext& ctx, bool reverse) {
  bool wrong_type = false;
  ZSet* zset = find_zset(ctx.keys, ctx.args[1], wrong_type);
  if (wrong_type) return err::wrong_type();
  if (zset == nullptr) return Reply::nil();
  auto member = zset->score_of.find(ctx.args[2]);
  if (member == zset->score_of.end()) return Reply::nil();
  const auto position = std::distance(zset->by_score.begin(), zset->by_score.find({member->second, member->first}));
  return Reply::integer_reply(reverse ? static_cast<std::int64_t>(zset->by_score.size()) - 1 - position : position);
}

// genericZpopCommand: a count reply is [[m, s], ...] on RESP3, a single pop a flat [m, s].
Reply pop(CommandContext& ctx, bool from_max) {
  Reply error;
  const auto pop_count = parse_pop_count(ctx.args, error);
  if (!pop_count) return error;
  const bool with_count = pop_count->given;
  const std::int64_t count = pop_count->count;
  bool wrong_type = false;
  ZSet* zset = find_zset(ctx.keys, ctx.args[1], wrong_type);
  if (wrong_type) return err::wrong_type();
  if (zset == nullptr || count == 0) return Reply::array({});
  std::vector<const ZItem*> chosen;
  const auto take = std::min<std::size_t>(static_cast<std::size_t>(count), zset->by_score.size());
  if (from_max) {
    auto it = zset->by_score.rbegin();
    for (std::size_t i = 0; i < take; ++i, ++it) chosen.push_back(&*it);
  } else {
    auto it = zset->by_score.begin();
    for (std::size_t i = 0; i < take; ++i, ++it) chosen.push_back(&*it);
  }
  Reply reply = scored_reply(chosen, /*with_scores=*/true, ctx.resp, /*pairs_on_resp3=*/with_count);
  remove_items(ctx.keys, ctx.args[1], *zset, chosen);
  return reply;
}

}  // namespace

Reply zrank(CommandContext& ctx) { return rank(ctx, false); }
Reply zrevrank(CommandContext& ctx) { return rank(ctx, true); }
Reply zpopmin(CommandContext& ctx) { return pop(ctx, false); }
Reply zpopmax(CommandContext& ctx) { return pop(ctx, true); }

// ZINCRBY key increment member is ZADD key INCR increment member, reply and errors alike.
Reply zincrby(CommandContext& ctx) {
  const Command as_zadd{ctx.args[0], ctx.args[1], "INCR", ctx.args[2], ctx.args[3]};
  CommandContext inner{ctx.node, ctx.keys, ctx.session, as_zadd, ctx.in_script, ctx.resp};
  return zadd(inner);
}

Reply zmscore(CommandContext& ctx) {
  bool wrong_type = false;
  ZSet* zset = find_zset(ctx.keys, ctx.args[1], wrong_type);
  if (wrong_type) return err::wrong_type();
  std::vector<Reply> out;
  for (std::size_t i = 2; i < ctx.args.size(); ++i) {
    const double* score = nullptr;
    if (zset != nullptr) {
      auto it = zset->score_of.find(ctx.args[i]);
      if (it != zset->score_of.end()) score = &it->second;
    }
    out.push_back(score != nullptr ? Reply::double_reply(format_double(*score)) : Reply::nil());
  }
  return Reply::array(std::move(out));
}

}  // namespace lockcheck::mock::cmd
