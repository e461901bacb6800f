// Sorted-set commands: ZADD (NX/XX/GT/LT/CH/INCR), ZREM, ZRANGE (by index or BYSCORE, REV, LIMIT,
// WITHSCORES), ZSCORE, ZCARD. Scores print with "%.17g" as Redis 7.0 does.
#include <algorithm>
#include <cmath>
#include <limits>

#include "commands.hpp"
#include "errors.hpp"
#include "numbers.hpp"
#include "text.hpp"

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

// A score bound for BYSCORE: "(1.5" is exclusive, "-inf"/"+inf" are open.
struct ScoreBound {
  double value = 0;
  bool exclusive = false;
};

std::optional<ScoreBound> parse_bound(std::string_view text) {
  ScoreBound bound;
  if (!text.empty() && text[0] == '(') {
    bound.exclusive = true;
    text.remove_prefix(1);
  }
  auto value = parse_double(text);
  if (!value) return std::nullopt;
  bound.value = *value;
  return bound;
}

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

Reply zrange(CommandContext& ctx) {
  const Command& args = ctx.args;
  bool by_score = false, rev = false, with_scores = false, limit = false;
  std::int64_t offset = 0, count = -1;
  for (std::size_t i = 4; i < args.size(); ++i) {
    if (iequals(args[i], "withscores")) with_scores = true;
    else if (iequals(args[i], "rev")) rev = true;
    else if (iequals(args[i], "byscore")) by_score = true;
    else if (iequals(args[i], "limit") && i + 2 < args.size()) {
      auto o = parse_int64(args[i + 1]);
      auto c = parse_int64(args[i + 2]);
      if (!o || !c) return err::not_integer();
      offset = *o;
      count = *c;
      limit = true;
      i += 2;
    } else {
      return err::syntax();
    }
  }
  if (limit && !by_score) {
    return Reply::error("ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX");
  }
  std::vector<const std::pair<double, std::string>*> chosen;
  std::optional<ScoreBound> min, max;
  std::optional<std::int64_t> start, stop;
  if (by_score) {
    // With REV the first bound is the maximum.
    min = parse_bound(rev ? args[3] : args[2]);
    max = parse_bound(rev ? args[2] : args[3]);
    if (!min || !max) return Reply::error("ERR min or max is not a float");
  } else {
    start = parse_int64(args[2]);
    stop = parse_int64(args[3]);
    if (!start || !stop) return err::not_integer();
  }
  bool wrong_type = false;
  ZSet* zset = find_zset(ctx, wrong_type);
  if (wrong_type) return err::wrong_type();
  if (zset == nullptr) return Reply::array({});
  std::vector<const std::pair<double, std::string>*> ordered;
  for (const auto& item : zset->by_score) ordered.push_back(&item);
  if (rev) std::reverse(ordered.begin(), ordered.end());
  if (by_score) {
    for (const auto* item : ordered) {
      bool above = min->exclusive ? item->first > min->value : item->first >= min->value;
      bool below = max->exclusive ? item->first < max->value : item->first <= max->value;
      if (above && below) chosen.push_back(item);
    }
    if (limit) {
      if (offset < 0) chosen.clear();
      std::size_t skip = std::min<std::size_t>(chosen.size(), static_cast<std::size_t>(std::max<std::int64_t>(offset, 0)));
      chosen.erase(chosen.begin(), chosen.begin() + static_cast<std::ptrdiff_t>(skip));
      if (count >= 0 && static_cast<std::size_t>(count) < chosen.size()) chosen.resize(static_cast<std::size_t>(count));
    }
  } else {
    auto size = static_cast<std::int64_t>(ordered.size());
    std::int64_t from = *start < 0 ? std::max<std::int64_t>(size + *start, 0) : *start;
    std::int64_t to = *stop < 0 ? size + *stop : std::min(*stop, size - 1);
    for (std::int64_t i = from; i <= to && i < size; ++i) chosen.push_back(ordered[static_cast<std::size_t>(i)]);
  }
  std::vector<Reply> out;
  for (const auto* item : chosen) {
    if (with_scores && ctx.resp == 3) {  // RESP3: [member, score] pairs
      out.push_back(Reply::array({Reply::bulk(item->second), Reply::double_reply(format_double(item->first))}));
      continue;
    }
    out.push_back(Reply::bulk(item->second));
    if (with_scores) out.push_back(Reply::double_reply(format_double(item->first)));
  }
  return Reply::array(std::move(out));
}

}  // namespace lockcheck::mock::cmd
