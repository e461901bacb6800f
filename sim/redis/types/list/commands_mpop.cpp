// LMPOP, BLMPOP, ZMPOP, BZMPOP: numkeys keys... LEFT|RIGHT (MIN|MAX) [COUNT n]. Up to n elements from the first
// key that holds any, as [key, [elements]] (a sorted set's as [member, score] pairs); nil when every key is empty.
// The blocking forms read their timeout last, then block like BLPOP. Redis announces the pops as "lpop"/"rpop"
// and "zpopmin"/"zpopmax".
#include <algorithm>

#include "redis/server/blocking_pop.hpp"
#include "redis/types/list/list_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/types/list/list_access.hpp"
#include "redis/util/numbers.hpp"
#include "redis/util/text.hpp"
#include "redis/types/zset/zset_access.hpp"

namespace lockcheck::mock::cmd {
namespace {

struct MpopRequest {
  std::size_t first_key = 0, key_count = 0;
  bool from_end = false;  // RIGHT, MAX
  std::int64_t count = 1;
};

// lmpopGenericCommand / zmpopGenericCommand: numkeys, then the side just past the keys, then COUNT once.
std::optional<MpopRequest> parse_mpop(const Command& args, std::size_t numkeys_index, bool zset, Reply& error) {
  auto numkeys = parse_int64(args[numkeys_index]);
  if (!numkeys || *numkeys < 1) return error = Reply::error("ERR numkeys should be greater than 0"), std::nullopt;
  if (*numkeys >= static_cast<std::int64_t>(args.size() - numkeys_index - 1)) return error = err::syntax(), std::nullopt;
  MpopRequest request{numkeys_index + 1, static_cast<std::size_t>(*numkeys)};
  const std::string& side = args[request.first_key + request.key_count];
  if (zset ? iequals(side, "max") : iequals(side, "right")) request.from_end = true;
  else if (!(zset ? iequals(side, "min") : iequals(side, "left"))) return error = err::syntax(), std::nullopt;
  bool counted = false;
  for (std::size_t j = request.first_key + request.key_count + 1; j < args.size(); ++j) {
    if (counted || !iequals(args[j], "count") || j + 1 >= args.size()) return error = err::syntax(), std::nullopt;
    auto count = parse_int64(args[++j]);
    if (!count || *count < 1) return error = Reply::error("ERR count should be greater than 0"), std::nullopt;
    request.count = *count;
    counted = true;
  }
  return request;
}

std::optional<Reply> pop_lists(CommandContext& ctx, const MpopRequest& request) {
  for (std::size_t i = request.first_key; i < request.first_key + request.key_count; ++i) {
    const std::string& key = ctx.args[i];
    bool wrong_type = false;
    List* list = find_list(ctx.keys, key, wrong_type);
    if (wrong_type) return err::wrong_type();
    if (list == nullptr || list->empty()) continue;
    const auto take = static_cast<std::size_t>(std::min<std::int64_t>(request.count, static_cast<std::int64_t>(list->size())));
    std::vector<Reply> elements;
    for (std::size_t n = 0; n < take; ++n) {
      elements.push_back(Reply::bulk(request.from_end ? std::move(list->back()) : std::move(list->front())));
      if (request.from_end) list->pop_back();
      else list->pop_front();
    }
    AnnouncedAs announced(ctx.keys, request.from_end ? "rpop" : "lpop");
    if (list->empty()) ctx.keys.remove(key);
    else ctx.keys.modified(key);
    return Reply::array({Reply::bulk(key), Reply::array(std::move(elements))});
  }
  return std::nullopt;
}

std::optional<Reply> pop_zsets(CommandContext& ctx, const MpopRequest& request) {
  for (std::size_t i = request.first_key; i < request.first_key + request.key_count; ++i) {
    const std::string& key = ctx.args[i];
    bool wrong_type = false;
    ZSet* zset = find_zset(ctx.keys, key, wrong_type);
    if (wrong_type) return err::wrong_type();
    if (zset == nullptr || zset->by_score.empty()) continue;
    const auto take = static_cast<std::size_t>(std::min<std::int64_t>(request.count, static_cast<std::int64_t>(zset->by_score.size())));
    std::vector<const ZItem*> chosen;
    if (request.from_end) {
      auto it = zset->by_score.rbegin();
      for (std::size_t n = 0; n < take; ++n, ++it) chosen.push_back(&*it);
    } else {
      auto it = zset->by_score.begin();
      for (std::size_t n = 0; n < take; ++n, ++it) chosen.push_back(&*it);
    }
    Reply members = scored_reply(chosen, /*with_scores=*/true, /*resp=*/3);  // always [member, score] pairs
    AnnouncedAs announced(ctx.keys, request.from_end ? "zpopmax" : "zpopmin");
    remove_items(ctx.keys, key, *zset, chosen);
    return Reply::array({Reply::bulk(key), std::move(members)});
  }
  return std::nullopt;
}

// One try of the (already validated) command in ctx.args; numkeys sits at index 1, or 2 after a timeout.
template <std::size_t NumkeysIndex, bool ZSetPop>
std::optional<Reply> try_mpop(CommandContext& ctx) {
  Reply error;
  auto request = parse_mpop(ctx.args, NumkeysIndex, ZSetPop, error);
  if (!request) return error;
  return ZSetPop ? pop_zsets(ctx, *request) : pop_lists(ctx, *request);
}

template <bool ZSetPop>
Reply mpop(CommandContext& ctx) {
  Reply error;
  if (!parse_mpop(ctx.args, 1, ZSetPop, error)) return error;
  if (std::optional<Reply> reply = try_mpop<1, ZSetPop>(ctx)) return std::move(*reply);
  return Reply::null_array();
}

template <bool ZSetPop>
Reply blocking_mpop(CommandContext& ctx) {
  Reply error;
  if (!parse_mpop(ctx.args, 2, ZSetPop, error)) return error;
  return pop_or_block(ctx, try_mpop<2, ZSetPop>, ctx.args[1]);
}

}  // namespace

Reply lmpop(CommandContext& ctx) { return mpop<false>(ctx); }
Reply zmpop(CommandContext& ctx) { return mpop<true>(ctx); }
Reply blmpop(CommandContext& ctx) { return blocking_mpop<false>(ctx); }
Reply bzmpop(CommandContext& ctx) { return blocking_mpop<true>(ctx); }

}  // namespace lockcheck::mock::cmd
