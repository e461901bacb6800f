// List commands: LPUSH/RPUSH(X), LPOP/RPOP (with count), LRANGE, LREM, LLEN; positional ones in
// commands_list_edit.cpp.
#include <algorithm>
#include <limits>

#include "redis/types/list/list_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/util/numbers.hpp"
#include "redis/types/pop_count.hpp"

namespace lockcheck::mock::cmd {
namespace {

List* find_list(CommandContext& ctx, bool& wrong_type) {
  wrong_type = false;
  Entry* entry = ctx.keys.find(ctx.args[1]);
  if (entry == nullptr) return nullptr;
  List* list = std::get_if<List>(&entry->value);
  wrong_type = list == nullptr;
  return list;
}

// only_existing: LPUSHX/RPUSHX, which answer 0 for a missing key.
Reply push(CommandContext& ctx, bool left, bool only_existing = false) {
  bool wrong_type = false;
  List* list = find_list(ctx, wrong_type);
  if (wrong_type) return err::wrong_type();
  if (list == nullptr && only_existing) return Reply::integer_reply(0);
  bool created = list == nullptr;
  if (created) list = &std::get<List>(ctx.keys.add(ctx.args[1], Value{List{}}).value);
  for (std::size_t i = 2; i < ctx.args.size(); ++i) {
    if (left) list->push_front(ctx.args[i]);
    else list->push_back(ctx.args[i]);
  }
  if (!created) ctx.keys.modified(ctx.args[1]);
  return Reply::integer_reply(static_cast<std::int64_t>(list->size()));
}

Reply pop(CommandContext& ctx, bool left) {
  if (ctx.args.size() > 3) return err::arity(left ? "lpop" : "rpop");  // 7.0: an arity error here, ZPOPMIN's a syntax error
  Reply error;
  const auto pop_count = parse_pop_count(ctx.args, error);
  if (!pop_count) return error;
  const bool with_count = pop_count->given;
  const std::int64_t count = pop_count->count;
  bool wrong_type = false;
  List* list = find_list(ctx, wrong_type);
  if (wrong_type) return err::wrong_type();
  if (list == nullptr) return with_count ? Reply::null_array() : Reply::nil();
  std::vector<Reply> popped;
  for (std::int64_t i = 0; i < count && !list->empty(); ++i) {
    if (left) {
      popped.push_back(Reply::bulk(std::move(list->front())));
      list->pop_front();
    } else {
      popped.push_back(Reply::bulk(std::move(list->back())));
      list->pop_back();
    }
  }
  if (list->empty()) ctx.keys.remove(ctx.args[1]);
  else if (!popped.empty()) ctx.keys.modified(ctx.args[1]);
  if (!with_count) return std::move(popped.front());
  return Reply::array(std::move(popped));
}

}  // namespace

Reply lpush(CommandContext& ctx) { return push(ctx, true); }
Reply rpush(CommandContext& ctx) { return push(ctx, false); }
Reply lpushx(CommandContext& ctx) { return push(ctx, true, true); }
Reply rpushx(CommandContext& ctx) { return push(ctx, false, true); }
Reply lpop(CommandContext& ctx) { return pop(ctx, true); }
Reply rpop(CommandContext& ctx) { return pop(ctx, false); }

Reply llen(CommandContext& ctx) {
  bool wrong_type = false;
  List* list = find_list(ctx, wrong_type);
  if (wrong_type) return err::wrong_type();
  return Reply::integer_reply(list == nullptr ? 0 : static_cast<std::int64_t>(list->size()));
}

Reply lrange(CommandContext& ctx) {
  auto start = parse_int64(ctx.args[2]);
  auto stop = parse_int64(ctx.args[3]);
  if (!start || !stop) return err::not_integer();
  bool wrong_type = false;
  List* list = find_list(ctx, wrong_type);
  if (wrong_type) return err::wrong_type();
  std::vector<Reply> out;
  if (list == nullptr) return Reply::array({});
  auto size = static_cast<std::int64_t>(list->size());
  std::int64_t from = *start < 0 ? std::max<std::int64_t>(size + *start, 0) : *start;
  std::int64_t to = *stop < 0 ? size + *stop : std::min(*stop, size - 1);
  for (std::int64_t i = from; i <= to && i < size; ++i) out.push_back(Reply::bulk((*list)[static_cast<std::size_t>(i)]));
  return Reply::array(std::move(out));
}

Reply lrem(CommandContext& ctx) {
  auto count = parse_int64(ctx.args[2]);
  if (!count) return err::not_integer();
  bool wrong_type = false;
  List* list = find_list(ctx, wrong_type);
  if (wrong_type) return err::wrong_type();
  if (list == nullptr) return Reply::integer_reply(0);
  const std::string& element = ctx.args[3];
  std::int64_t limit = (*count == 0 || *count == std::numeric_limits<std::int64_t>::min()) ? static_cast<std::int64_t>(list->size()) : (*count < 0 ? -*count : *count);
  std::int64_t removed = 0;
  if (*count >= 0) {
    for (auto it = list->begin(); it != list->end() && removed < limit;) {
      if (*it == element) {
        it = list->erase(it);
        ++removed;
      } else {
        ++it;
      }
    }
  } else {
    for (std::size_t i = list->size(); i > 0 && removed < limit; --i) {
      if ((*list)[i - 1] == element) {
        list->erase(list->begin() + static_cast<std::ptrdiff_t>(i - 1));
        ++removed;
      }
    }
  }
  if (list->empty()) ctx.keys.remove(ctx.args[1]);
  else if (removed > 0) ctx.keys.modified(ctx.args[1]);
  return Reply::integer_reply(removed);
}

}  // namespace lockcheck::mock::cmd
