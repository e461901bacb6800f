// ZUNION, ZINTER, ZDIFF, ZINTERCARD and their *STORE forms, as Redis 7.0's zunionInterDiffGenericCommand: numkeys,
// the keys (sorted sets, or plain sets whose members score 1), then WEIGHTS / AGGREGATE / WITHSCORES / LIMIT.
// A product or sum that comes out NaN (inf * 0, inf + -inf) counts as 0, as Redis's convention.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "redis/types/zset/zset_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/util/numbers.hpp"
#include "redis/types/set/set_access.hpp"
#include "redis/util/text.hpp"
#include "redis/types/zset/zset_access.hpp"

namespace lockcheck::mock::cmd {
namespace {

enum class ZSetOperation { zunion, zinter, zdiff };
enum class Aggregate { sum, min, max };

// One input: a sorted set, a plain set (every member scores 1), or a missing key (empty).
struct Source {
  const ZSet* zset = nullptr;
  const Set* set = nullptr;
  double weight = 1.0;

  std::size_t size() const { return zset != nullptr ? zset->score_of.size() : set != nullptr ? set->size() : 0; }
  std::optional<double> score_of(const std::string& member) const {
    if (zset != nullptr) {
      auto it = zset->score_of.find(member);
      return it == zset->score_of.end() ? std::nullopt : std::optional<double>(it->second);
    }
    if (set != nullptr && set->contains(member)) return 1.0;
    return std::nullopt;
  }
  template <typename Visit>
  void for_each(Visit visit) const {
    if (zset != nullptr) {
      for (const ZItem& item : zset->by_score) visit(item.second, item.first);
    } else if (set != nullptr) {
      for (const std::string& member : *set) visit(member, 1.0);
    }
  }
};

void aggregate_into(double& target, double value, Aggregate aggregate) {
  switch (aggregate) {
    case Aggregate::sum:
      target += value;
      if (std::isnan(target)) target = 0.0;
      return;
    case Aggregate::min: target = value < target ? value : target; return;
    case Aggregate::max: target = value > target ? value : target; return;
  }
}

double weighted(double score, double weight) {
  const double product = score * weight;
  return std::isnan(product) ? 0.0 : product;
}

struct Request {
  std::vector<Source> sources;
  Aggregate aggregate = Aggregate::sum;
  bool with_scores = false;
  std::int64_t limit = 0;  // ZINTERCARD: stop counting there (0: no limit)
};

// Parses args from numkeys_index on; nullopt with `error` set for any refusal, in Redis's order: numkeys,
// the keys' types, then the options.
std::optional<Request> parse_request(CommandContext& ctx, std::size_t numkeys_index, ZSetOperation operation,
                                     bool store, bool cardinality_only, Reply& error) {
  const Command& args = ctx.args;
  auto numkeys = parse_int64(args[numkeys_index]);
  if (!numkeys) return error = err::not_integer(), std::nullopt;
  if (*numkeys < 1) {
    return error = Reply::error("ERR at least 1 input key is needed for '" + to_lower(args[0]) + "' command"), std::nullopt;
  }
  if (*numkeys > static_cast<std::int64_t>(args.size() - numkeys_index - 1)) return error = err::syntax(), std::nullopt;
  Request request;
  std::size_t j = numkeys_index + 1;
  for (std::int64_t i = 0; i < *numkeys; ++i, ++j) {
    Entry* entry = ctx.keys.find(args[j]);
    Source source;
    if (entry != nullptr) {
      source.zset = std::get_if<ZSet>(&entry->value);
      source.set = std::get_if<Set>(&entry->value);
      if (source.zset == nullptr && source.set == nullptr) return error = err::wrong_type(), std::nullopt;
    }
    request.sources.push_back(source);
  }
  const bool scored = operation != ZSetOperation::zdiff && !cardinality_only;
  const std::size_t setnum = request.sources.size();
  while (j < args.size()) {
    const std::size_t remaining = args.size() - j;
    if (scored && remaining >= setnum + 1 && iequals(args[j], "weights")) {
      ++j;
      for (Source& source : request.sources) {
        auto weight = parse_double(args[j++]);
        if (!weight) return error = Reply::error("ERR weight value is not a float"), std::nullopt;
        source.weight = *weight;
      }
    } else if (scored && remaining >= 2 && iequals(args[j], "aggregate")) {
      const std::string& how = args[j + 1];
      if (iequals(how, "sum")) request.aggregate = Aggregate::sum;
      else if (iequals(how, "min")) request.aggregate = Aggregate::min;
      else if (iequals(how, "max")) request.aggregate = Aggregate::max;
      else return error = err::syntax(), std::nullopt;
      j += 2;
    } else if (!store && !cardinality_only && iequals(args[j], "withscores")) {
      request.with_scores = true;
      ++j;
    } else if (cardinality_only && remaining >= 2 && iequals(args[j], "limit")) {
      auto limit = parse_int64(args[j + 1]);
      if (!limit || *limit < 0) return error = Reply::error("ERR LIMIT can't be negative"), std::nullopt;
      request.limit = *limit;
      j += 2;
    } else {
      return error = err::syntax(), std::nullopt;
    }
  }
  return request;
}

// The intersection walks the smallest input (Redis sorts the inputs by size first) and aggregates in that order.
ZSet intersect(std::vector<Source> sources, Aggregate aggregate, std::int64_t limit, std::int64_t& cardinality) {
  std::stable_sort(sources.begin(), sources.end(), [](const Source& a, const Source& b) { return a.size() < b.size(); });
  ZSet result;
  if (sources.front().size() == 0) return result;
  bool stop = false;
  sources.front().for_each([&](const std::string& member, double score) {
    if (stop) return;
    double total = weighted(score, sources.front().weight);
    for (std::size_t j = 1; j < sources.size(); ++j) {
      auto found = sources[j].score_of(member);
      if (!found) return;
      aggregate_into(total, *found * sources[j].weight, aggregate);
    }
    ++cardinality;
    if (limit != 0 && cardinality >= limit) stop = true;
    zset_put(result, member, total);
  });
  return result;
}

ZSet unite(std::vector<Source> sources, Aggregate aggregate) {
  std::stable_sort(sources.begin(), sources.end(), [](const Source& a, const Source& b) { return a.size() < b.size(); });
  std::map<std::string, double, std::less<>> accumulated;
  for (const Source& source : sources) {
    source.for_each([&](const std::string& member, double score) {
      const double value = weighted(score, source.weight);
      auto [it, added] = accumulated.try_emplace(member, value);
      if (!added) aggregate_into(it->second, value, aggregate);
    });
  }
  ZSet result;
  for (const auto& [member, score] : accumulated) zset_put(result, member, score);
  return result;
}

// The first input without the members of the others; its own scores, unweighted.
ZSet subtract(const std::vector<Source>& sources) {
  ZSet result;
  for (std::size_t j = 1; j < sources.size(); ++j) {
    if (sources[j].zset == sources[0].zset && sources[j].set == sources[0].set) return result;  // itself: nothing left
  }
  sources.front().for_each([&](const std::string& member, double score) {
    for (std::size_t j = 1; j < sources.size(); ++j) {
      if (sources[j].score_of(member)) return;
    }
    zset_put(result, member, score);
  });
  return result;
}

Reply algebra(CommandContext& ctx, ZSetOperation operation, bool store, bool cardinality_only = false) {
  Reply error;
  auto request = parse_request(ctx, store ? 2 : 1, operation, store, cardinality_only, error);
  if (!request) return error;
  std::int64_t cardinality = 0;
  ZSet result;
  switch (operation) {
    case ZSetOperation::zinter: result = intersect(request->sources, request->aggregate, request->limit, cardinality); break;
    case ZSetOperation::zunion: result = unite(request->sources, request->aggregate); break;
    case ZSetOperation::zdiff: result = subtract(request->sources); break;
  }
  if (cardinality_only) return Reply::integer_reply(cardinality);
  if (store) return store_zset(ctx.keys, ctx.args[1], std::move(result));
  std::vector<const ZItem*> items;
  for (const ZItem& item : result.by_score) items.push_back(&item);
  return scored_reply(items, request->with_scores, ctx.resp);
}

}  // namespace

Reply zunion(CommandContext& ctx) { return algebra(ctx, ZSetOperation::zunion, false); }
Reply zinter(CommandContext& ctx) { return algebra(ctx, ZSetOperation::zinter, false); }
Reply zdiff(CommandContext& ctx) { return algebra(ctx, ZSetOperation::zdiff, false); }
Reply zunionstore(CommandContext& ctx) { return algebra(ctx, ZSetOperation::zunion, true); }
Reply zinterstore(CommandContext& ctx) { return algebra(ctx, ZSetOperation::zinter, true); }
Reply zdiffstore(CommandContext& ctx) { return algebra(ctx, ZSetOperation::zdiff, true); }
Reply zintercard(CommandContext& ctx) { return algebra(ctx, ZSetOperation::zinter, false, /*cardinality_only=*/true); }

}  // namespace lockcheck::mock::cmd
