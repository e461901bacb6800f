// Sorted-set commands: ZADD (NX/XX/GT/LT/CH/INCR), ZREM, ZSCORE, ZCARD; ranges in commands_zset_range.cpp,
// ranks, pops and ZINCRBY in commands_zset_more.cpp. Scores print with "%.17g" as Redis 7.0 does.
#include <algorithm>
#include <cmath>
#include <limits>

#include "redis/types/zset/zset_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/util/numbers.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock::cmd {
namespace {

ZSet* find_zset(CommandContext& ctx, bool& wrong_type) {
  wrong_type = false;
  Entry* entry = ctx.keys.find(ctx.args[1]);
  if (entry == nullptr) return nullptr;
  ZSet* zset = std::get_if<ZSet>(&entry->value);
  wrong_type = zset == nullptr;
  return zset;
}

enum ZaddFlag : unsigned { kNx = 1, kXx = 2, kGt = 4, kLt = 8, kCh = 16, kIncr = 32 };

}  // namespace

Reply zadd(CommandContext& ctx) {
  const Command& args = ctx.args;
  unsigned flags = 0;
  std::size_t i = 2;
  for (; i < args.size(); ++i) {
    const std::string& opt = args[i];
    if (iequals(opt, "nx")) flags |= kNx;
    else if (iequals(opt, "xx")) flags |= kXx;
    else if (iequals(opt, "gt")) flags |= kGt;
    else if (iequals(opt, "lt")) flags |= kLt;
    else if (iequals(opt, "ch")) flags |= kCh;
    else if (iequals(opt, "incr")) flags |= kIncr;
    else break;
  }
  std::size_t pairs_args = args.size() - i;
  if (pairs_args == 0 || pairs_args % 2 != 0) return err::syntax();
  if ((flags & kNx) && (flags & kXx)) return Reply::error("ERR XX and NX options at the same time are not compatible");
  if (((flags & kGt) && (flags & kNx)) || ((flags & kLt) && (flags & kNx)) || ((flags & kGt) && (flags & kLt))) {
    return Reply::error("ERR GT, LT, and/or NX options at the same time are not compatible");
  }
  if ((flags & kIncr) && pairs_args > 2) return Reply::error("ERR INCR option supports a single increment-element pair");
  std::vector<double> scores;
  for (std::size_t j = i; j < args.size(); j += 2) {
    auto score = parse_double(args[j]);
    if (!score) return err::reply(err::kNotFloat);
    scores.push_back(*score);
  }
  bool wrong_type = false;
  ZSet* zset = find_zset(ctx, wrong_type);
  if (wrong_type) return err::wrong_type();
  bool created = zset == nullptr;
  if (created) {
    if (flags & kXx) return (flags & kIncr) ? Reply::nil() : Reply::integer_reply(0);
    zset = &std::get<ZSet>(ctx.keys.add(args[1], Value{ZSet{}}).value);
  }
  std::int64_t added = 0;
  std::int64_t changed = 0;
  Reply incr_reply = Reply::nil();
  for (std::size_t k = 0; k < scores.size(); ++k) {
    const std::string& member = args[i + 2 * k + 1];
    double score = scores[k];
    auto it = zset->score_of.find(member);
    if (it == zset->score_of.end()) {
      if (flags & kXx) continue;
      zset_put(*zset, member, score);
      ++added;
      if (flags & kIncr) incr_reply = Reply::double_reply(format_double(score));
      continue;
    }
    if (flags & kNx) continue;
    double current = it->second;
    if (flags & kIncr) {
      score += current;
      if (std::isnan(score)) return Reply::error("ERR resulting score is not a number (NaN)");
    }
    if (((flags & kGt) && score <= current) || ((flags & kLt) && score >= current)) continue;
    if (flags & kIncr) incr_reply = Reply::double_reply(format_double(score));
    if (score != current) {
      zset_put(*zset, member, score);
      ++changed;
    }
  }
  if (zset->score_of.empty()) ctx.keys.remove(args[1]);  // XX-only on a new key added nothing
  else if (!created && added + changed > 0) ctx.keys.modified(args[1]);
  if (flags & kIncr) return incr_reply;
  return Reply::integer_reply((flags & kCh) ? added + changed : added);
}

Reply zrem(CommandContext& ctx) {
  bool wrong_type = false;
  ZSet* zset = find_zset(ctx, wrong_type);
  if (wrong_type) return err::wrong_type();
  if (zset == nullptr) return Reply::integer_reply(0);
  std::int64_t removed = 0;
  for (std::size_t i = 2; i < ctx.args.size(); ++i) removed += zset_erase(*zset, ctx.args[i]) ? 1 : 0;
  if (zset->score_of.empty()) ctx.keys.remove(ctx.args[1]);
  else if (removed > 0) ctx.keys.modified(ctx.args[1]);
  return Reply::integer_reply(removed);
}

Reply zscore(CommandContext& ctx) {
  bool wrong_type = false;
  ZSet* zset = find_zset(ctx, wrong_type);
  if (wrong_type) return err::wrong_type();
  if (zset == nullptr) return Reply::nil();
  auto it = zset->score_of.find(ctx.args[2]);
  return it == zset->score_of.end() ? Reply::nil() : Reply::double_reply(format_double(it->second));
}

Reply zcard(CommandContext& ctx) {
  bool wrong_type = false;
  ZSet* zset = find_zset(ctx, wrong_type);
  if (wrong_type) return err::wrong_type();
  return Reply::integer_reply(zset == nullptr ? 0 : static_cast<std::int64_t>(zset->score_of.size()));
}

}  // namespace lockcheck::mock::cmd
