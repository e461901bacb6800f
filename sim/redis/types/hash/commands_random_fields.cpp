// HRANDFIELD and ZRANDMEMBER with Redis 7.0.15's count rules: a positive count gives distinct elements (the
// whole value, in its order, when the count reaches its size), a negative one independent draws that may
// repeat, and count 1 one draw. Draws come from the node's seeded source (Keyspace::next_random).
#include <limits>

#include "redis/types/hash/hash_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/util/numbers.hpp"
#include "redis/util/text.hpp"
#include "redis/types/zset/zset_access.hpp"

namespace lockcheck::mock::cmd {
namespace {

// The count argument and the WITHVALUES / WITHSCORES flag; `error` set when Redis refuses them.
struct RandomCount {
  std::int64_t count = 0;
  bool with_values = false;
};

std::optional<RandomCount> parse_count_and_flag(const Command& args, std::string_view flag, Reply& error) {
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  const auto count = parse_int64(args[2]);
  if (!count) return error = err::not_integer(), std::nullopt;
  if (*count == std::numeric_limits<std::int64_t>::min()) {
    return error = Reply::error("ERR value is out of range, value must between -9223372036854775807 and "
                                "9223372036854775807"),
           std::nullopt;
  }
  if (args.size() > 4 || (args.size() == 4 && !iequals(args[3], flag))) return error = err::syntax(), std::nullopt;
  const bool with_values = args.size() == 4;
  // Twice the count of replies must still fit a long.
  if (with_values && (*count < -kMax / 2 || *count > kMax / 2)) {
    return error = Reply::error("ERR value is out of range"), std::nullopt;
  }
  return RandomCount{*count, with_values};
}

// Without a count argument: count 0 (the single-draw form). False with `error` set when Redis refuses it.
bool read_random_count(const Command& args, std::string_view flag, RandomCount& parsed, Reply& error) {
  if (args.size() < 3) return true;
  auto count = parse_count_and_flag(args, flag, error);
  if (count) parsed = *count;
  return count.has_value();
}

// Positions (0..size-1) the count selects, in reply order.
std::vector<std::size_t> pick_positions(Keyspace& keys, std::size_t size, std::int64_t count) {
  std::vector<std::size_t> picks;
  if (count < 0 || count == 1) {
    const std::uint64_t draws = count < 0 ? static_cast<std::uint64_t>(-count) : 1;
    for (std::uint64_t i = 0; i < draws; ++i) picks.push_back(static_cast<std::size_t>(keys.next_random() % size));
    return picks;
  }
  picks.resize(size);
  for (std::size_t i = 0; i < size; ++i) picks[i] = i;
  const auto wanted = static_cast<std::uint64_t>(count);
  if (wanted >= size) return picks;
  // A partial Fisher-Yates shuffle: the first `wanted` positions are distinct and random.
  for (std::size_t i = 0; i < wanted; ++i) {
    std::swap(picks[i], picks[i + static_cast<std::size_t>(keys.next_random() % (size - i))]);
  }
  picks.resize(static_cast<std::size_t>(wanted));
  return picks;
}

}  // namespace

Reply hrandfield(CommandContext& ctx) {
  RandomCount parsed;
  Reply error;
  if (!read_random_count(ctx.args, "withvalues", parsed, error)) return error;
  bool wrong_type = false;
  Hash* hash = find_typed<Hash>(ctx.keys, ctx.args[1], wrong_type);
  if (wrong_type) return err::wrong_type();
  if (ctx.args.size() < 3) {
    if (hash == nullptr) return Reply::nil();
    return Reply::bulk((*hash)[static_cast<std::size_t>(ctx.keys.next_random() % hash->size())].first);
  }
  if (hash == nullptr || parsed.count == 0) return Reply::array({});
  std::vector<Reply> out;
  for (std::size_t position : pick_positions(ctx.keys, hash->size(), parsed.count)) {
    const auto& [field, value] = (*hash)[position];
    if (!parsed.with_values) {
      out.push_back(Reply::bulk(field));
    } else if (ctx.resp == 3) {
      out.push_back(Reply::array({Reply::bulk(field), Reply::bulk(value)}));
    } else {
      out.push_back(Reply::bulk(field));
      out.push_back(Reply::bulk(value));
    }
  }
  return Reply::array(std::move(out));
}

Reply zrandmember(CommandContext& ctx) {
  RandomCount parsed;
  Reply error;
  if (!read_random_count(ctx.args, "withscores", parsed, error)) return error;
  bool wrong_type = false;
  ZSet* zset = find_zset(ctx.keys, ctx.args[1], wrong_type);
  if (wrong_type) return err::wrong_type();
  std::vector<const ZItem*> items;
  if (zset != nullptr) {
    items.reserve(zset->by_score.size());
    // Highest score first: Redis walks a sorted set from its tail here (zuiInitIterator), so a whole-set reply
    // comes in descending order.
    for (auto it = zset->by_score.rbegin(); it != zset->by_score.rend(); ++it) items.push_back(&*it);
  }
  if (ctx.args.size() < 3) {
    if (items.empty()) return Reply::nil();
    return Reply::bulk(items[static_cast<std::size_t>(ctx.keys.next_random() % items.size())]->second);
  }
  if (items.empty() || parsed.count == 0) return Reply::array({});
  std::vector<const ZItem*> picked;
  for (std::size_t position : pick_positions(ctx.keys, items.size(), parsed.count)) picked.push_back(items[position]);
  return scored_reply(picked, parsed.with_values, ctx.resp);
}

}  // namespace lockcheck::mock::cmd
