// List commands that read or edit by position or value: LINDEX, LSET, LTRIM, LINSERT, LPOS, LMOVE,
// RPOPLPUSH. The order of checks (key, type, then argument) is Redis 7.0's, command by command.
#include <algorithm>
#include <limits>

#include "redis/types/list/list_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/types/list/list_access.hpp"
#include "redis/util/numbers.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock::cmd {
namespace {

struct LposOptions {
  std::int64_t rank = 1;
  std::optional<std::int64_t> count;  // set: reply an array
  std::int64_t maxlen = 0;            // 0: the whole list
};

// LPOS's RANK, COUNT, MAXLEN; nullopt with `error` set on a bad option.
std::optional<LposOptions> parse_lpos_options(const Command& args, Reply& error) {
  LposOptions options;
  for (std::size_t i = 3; i < args.size(); i += 2) {
    const bool has_value = i + 1 < args.size();
    const auto number = has_value ? parse_int64(args[i + 1]) : std::nullopt;
    if (iequals(args[i], "rank") && has_value) {
      if (!number) return error = err::not_integer(), std::nullopt;
      if (*number == 0) {
        error = Reply::error("ERR RANK can't be zero: use 1 to start from the first match, 2 from the second ... or use "
                             "negative to start from the end of the list");
        return std::nullopt;
      }
      options.rank = *number;
    } else if (iequals(args[i], "count") && has_value) {
      if (!number || *number < 0) return error = Reply::error("ERR COUNT can't be negative"), std::nullopt;
      options.count = *number;
    } else if (iequals(args[i], "maxlen") && has_value) {
      if (!number || *number < 0) return error = Reply::error("ERR MAXLEN can't be negative"), std::nullopt;
      options.maxlen = *number;
    } else {
      return error = err::syntax(), std::nullopt;
    }
  }
  return options;
}

}  // namespace

Reply lindex(CommandContext& ctx) {
  bool wrong_type = false;
  List* list = find_list(ctx.keys, ctx.args[1], wrong_type);
  if (wrong_type) return err::wrong_type();
  if (list == nullptr) return Reply::nil();
  auto index = parse_int64(ctx.args[2]);
  if (!index) return err::not_integer();
  auto position = list_position(*index, list->size());
  return position ? Reply::bulk((*list)[*position]) : Reply::nil();
}

Reply lset(CommandContext& ctx) {
  bool wrong_type = false;
  List* list = find_list(ctx.keys, ctx.args[1], wrong_type);
  if (wrong_type) return err::wrong_type();
  if (list == nullptr) return Reply::error("ERR no such key");
  auto index = parse_int64(ctx.args[2]);
  if (!index) return err::not_integer();
  auto position = list_position(*index, list->size());
  if (!position) return Reply::error("ERR index out of range");
  (*list)[*position] = ctx.args[3];
  ctx.keys.modified(ctx.args[1]);
  return Reply::ok();
}

Reply ltrim(CommandContext& ctx) {
  auto start = parse_int64(ctx.args[2]);
  auto stop = parse_int64(ctx.args[3]);
  if (!start || !stop) return err::not_integer();
  bool wrong_type = false;
  List* list = find_list(ctx.keys, ctx.args[1], wrong_type);
  if (wrong_type) return err::wrong_type();
  if (list == nullptr) return Reply::ok();
  const auto size = static_cast<std::int64_t>(list->size());
  std::int64_t from = *start < 0 ? size + *start : *start;
  std::int64_t to = *stop < 0 ? size + *stop : *stop;
  from = std::max<std::int64_t>(from, 0);
  if (from > to || from >= size) {
    list->clear();
  } else {
    to = std::min(to, size - 1);
    list->erase(list->begin() + static_cast<std::ptrdiff_t>(to + 1), list->end());
    list->erase(list->begin(), list->begin() + static_cast<std::ptrdiff_t>(from));
  }
  if (list->empty()) ctx.keys.remove(ctx.args[1]);
  else ctx.keys.modified(ctx.args[1]);
  return Reply::ok();
}

Reply linsert(CommandContext& ctx) {
  const bool before = iequals(ctx.args[2], "before");
  if (!before && !iequals(ctx.args[2], "after")) return err::syntax();
  bool wrong_type = false;
  List* list = find_list(ctx.keys, ctx.args[1], wrong_type);
  if (wrong_type) return err::wrong_type();
  if (list == nullptr) return Reply::integer_reply(0);
  auto pivot = std::find(list->begin(), list->end(), ctx.args[3]);
  if (pivot == list->end()) return Reply::integer_reply(-1);
  list->insert(before ? pivot : pivot + 1, ctx.args[4]);
  ctx.keys.modified(ctx.args[1]);
  return Reply::integer_reply(static_cast<std::int64_t>(list->size()));
}

Reply lpos(CommandContext& ctx) {
  Reply error;
  auto options = parse_lpos_options(ctx.args, error);
  if (!options) return error;
  bool wrong_type = false;
  List* list = find_list(ctx.keys, ctx.args[1], wrong_type);
  if (wrong_type) return err::wrong_type();
  if (list == nullptr) return options->count ? Reply::array({}) : Reply::nil();
  // A negative rank scans from the tail; the lowest rank counts as the first match from the tail, as 7.0's
  // negation of it leaves it negative.
  const bool from_tail = options->rank < 0;
  const std::int64_t rank = options->rank == std::numeric_limits<std::int64_t>::min() ? 1
                            : from_tail                                               ? -options->rank
                                                                                      : options->rank;
  const auto size = static_cast<std::int64_t>(list->size());
  const std::int64_t scan = options->maxlen == 0 ? size : std::min(options->maxlen, size);
  std::vector<Reply> found;
  std::int64_t matches = 0;
  for (std::int64_t step = 0; step < scan; ++step) {
    const std::int64_t index = from_tail ? size - 1 - step : step;
    if ((*list)[static_cast<std::size_t>(index)] != ctx.args[2] || ++matches < rank) continue;
    found.push_back(Reply::integer_reply(index));
    if (!options->count) return found.front();
    if (*options->count != 0 && static_cast<std::int64_t>(found.size()) >= *options->count) break;
  }
  if (!options->count) return Reply::nil();
  return Reply::array(std::move(found));
}

Reply lmove(CommandContext& ctx) {
  auto from_left = parse_list_side(ctx.args[3]);
  auto to_left = parse_list_side(ctx.args[4]);
  if (!from_left || !to_left) return err::syntax();
  return move_list_element(ctx.keys, ctx.args[1], ctx.args[2], *from_left, *to_left);
}

Reply rpoplpush(CommandContext& ctx) {
  return move_list_element(ctx.keys, ctx.args[1], ctx.args[2], /*from_left=*/false, /*to_left=*/true);
}

}  // namespace lockcheck::mock::cmd
