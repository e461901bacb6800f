// SORT and SORT_RO: key [BY pattern] [LIMIT offset count] [GET pattern ...] [ASC|DESC] [ALPHA] [STORE dst].
// Facts of Redis 7.0 kept here: a BY pattern without '*' means "do not sort"; a set left unsorted that way is
// sorted ALPHA anyway when stored or read by a script, so replicas and replays agree; numeric ties fall back to
// comparing the elements; a missing BY value counts as 0 (or sorts first with ALPHA); GET of a missing value is
// nil, stored as "". STORE writes a list (announced as "sortstore"), or deletes dst for an empty result.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "redis/commands/keys/keys_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/util/numbers.hpp"
#include "redis/util/text.hpp"
#include "redis/types/zset/zset_access.hpp"

namespace lockcheck::mock::cmd {
namespace {

struct SortRequest {
  bool desc = false, alpha = false, dont_sort = false;
  std::int64_t offset = 0, count = -1;
  std::optional<std::string> by, store;
  std::vector<std::string> gets;
};

std::optional<SortRequest> parse_sort(const Command& args, bool read_only, Reply& error) {
  SortRequest request;
  for (std::size_t j = 2; j < args.size(); ++j) {
    const std::size_t left = args.size() - j - 1;
    if (iequals(args[j], "asc")) {
      request.desc = false;
    } else if (iequals(args[j], "desc")) {
      request.desc = true;
    } else if (iequals(args[j], "alpha")) {
      request.alpha = true;
    } else if (iequals(args[j], "limit") && left >= 2) {
      auto offset = parse_int64(args[j + 1]);
      auto count = parse_int64(args[j + 2]);
      if (!offset || !count) return error = err::not_integer(), std::nullopt;
      request.offset = *offset;
      request.count = *count;
      j += 2;
    } else if (!read_only && iequals(args[j], "store") && left >= 1) {
      request.store = args[++j];
    } else if (iequals(args[j], "by") && left >= 1) {
      request.by = args[++j];
      // Latched, as in sort.c: a later BY with a pattern does not sort again what an earlier one left unsorted.
      if (request.by->find('*') == std::string::npos) request.dont_sort = true;
    } else if (iequals(args[j], "get") && left >= 1) {
      request.gets.push_back(args[++j]);
    } else {
      return error = err::syntax(), std::nullopt;
    }
  }
  return request;
}

// The value a BY or GET pattern names for `element`: "#" is the element; the first '*' takes the element;
// "key*->field" reads a hash field. A pattern without '*', a missing key or one of another type: none.
std::optional<std::string> lookup_by_pattern(Keyspace& keys, const std::string& pattern, const std::string& element) {
  if (pattern == "#") return element;
  const std::size_t star = pattern.find('*');
  if (star == std::string::npos) return std::nullopt;
  std::size_t arrow = pattern.find("->", star + 1);
  if (arrow != std::string::npos && arrow + 2 == pattern.size()) arrow = std::string::npos;  // "->" with no field
  const std::string key = pattern.substr(0, star) + element + pattern.substr(star + 1, arrow == std::string::npos ? std::string::npos : arrow - star - 1);
  Entry* entry = keys.find(key);
  if (entry == nullptr) return std::nullopt;
  if (arrow != std::string::npos) {
    const Hash* hash = std::get_if<Hash>(&entry->value);
    if (hash == nullptr) return std::nullopt;
    const std::string* value = hash_find(*hash, std::string_view(pattern).substr(arrow + 2));
    return value == nullptr ? std::nullopt : std::optional<std::string>(*value);
  }
  const std::string* text = std::get_if<std::string>(&entry->value);
  return text == nullptr ? std::nullopt : std::optional<std::string>(*text);
}

struct SortItem {
  std::string element;
  double score = 0;
  std::optional<std::string> by_value;  // ALPHA with BY: what is compared (none sorts first)
};

// The elements in the value's own order: a list as stored, a sorted set by score, a set in the mock's order.
std::vector<SortItem> elements_of(const Value& value) {
  std::vector<SortItem> items;
  if (const List* list = std::get_if<List>(&value)) {
    for (const std::string& element : *list) items.push_back(SortItem{element, 0, std::nullopt});
  } else if (const ZSet* zset = std::get_if<ZSet>(&value)) {
    for (const ZItem& item : zset->by_score) items.push_back(SortItem{item.second, 0, std::nullopt});
  } else if (const Set* set = std::get_if<Set>(&value)) {
    for (const std::string& member : *set) items.push_back(SortItem{member, 0, std::nullopt});
  }
  return items;
}

// Loads the sort keys; false when a numeric one is not a number (strtod over the whole text, as Redis: "" is 0).
bool load_sort_keys(Keyspace& keys, const SortRequest& request, std::vector<SortItem>& items) {
  bool converted = true;
  for (SortItem& item : items) {
    std::optional<std::string> by_value = request.by ? lookup_by_pattern(keys, *request.by, item.element) : item.element;
    if (!by_value) continue;
    if (request.alpha) {
      if (request.by) item.by_value = std::move(by_value);
      continue;
    }
    errno = 0;
    char* end = nullptr;
    item.score = std::strtod(by_value->c_str(), &end);
    if (*end != '\0' || errno == ERANGE || std::isnan(item.score)) converted = false;
  }
  return converted;
}

void sort_items(const SortRequest& request, std::vector<SortItem>& items) {
  const auto compare = [&](const SortItem& a, const SortItem& b) {
    int order = 0;
    if (!request.alpha) {
      order = a.score > b.score ? 1 : a.score < b.score ? -1 : a.element.compare(b.element);
    } else if (request.by) {
      if (!a.by_value || !b.by_value) order = a.by_value == b.by_value ? 0 : !a.by_value ? -1 : 1;
      else order = a.by_value->compare(*b.by_value);
    } else {
      order = a.element.compare(b.element);
    }
    return request.desc ? order > 0 : order < 0;
  };
  std::stable_sort(items.begin(), items.end(), compare);
}

Reply sort_command(CommandContext& ctx, bool read_only) {
  Reply error;
  auto parsed = parse_sort(ctx.args, read_only, error);
  if (!parsed) return error;
  SortRequest request = std::move(*parsed);
  Entry* entry = ctx.keys.find(ctx.args[1]);
  std::vector<SortItem> items;
  if (entry != nullptr) {
    if (!std::holds_alternative<List>(entry->value) && !std::holds_alternative<Set>(entry->value) &&
        !std::holds_alternative<ZSet>(entry->value)) {
      return err::wrong_type();
    }
    if (request.dont_sort && std::holds_alternative<Set>(entry->value) && (request.store || ctx.in_script)) {
      request.dont_sort = false;
      request.alpha = true;
      request.by.reset();
    }
    // sort.c converts a sorted set to its skiplist form before sorting, destructively, SORT_RO included.
    if (std::holds_alternative<ZSet>(entry->value)) entry->encoding = Encoding::skiplist;
    items = elements_of(entry->value);
  }
  // Unsorted lists and sorted sets keep their order, walked backwards for DESC.
  if (request.dont_sort && request.desc && entry != nullptr && !std::holds_alternative<Set>(entry->value)) {
    std::reverse(items.begin(), items.end());
  }
  const auto size = static_cast<std::int64_t>(items.size());
  std::int64_t start = std::min(std::max<std::int64_t>(request.offset, 0), size);
  const std::int64_t count = std::min(std::max<std::int64_t>(request.count, -1), size);
  std::int64_t end = count < 0 ? size - 1 : start + count - 1;
  if (start >= size) {
    start = size - 1;
    end = size - 2;
  }
  if (end >= size) end = size - 1;
  if (!request.dont_sort) {
    const bool converted = load_sort_keys(ctx.keys, request, items);
    if (!converted) return Reply::error("ERR One or more scores can't be converted into double");
    sort_items(request, items);
  }
  std::vector<std::optional<std::string>> output;
  for (std::int64_t j = start; j <= end; ++j) {
    const std::string& element = items[static_cast<std::size_t>(j)].element;
    if (request.gets.empty()) output.emplace_back(element);
    for (const std::string& pattern : request.gets) output.push_back(lookup_by_pattern(ctx.keys, pattern, element));
  }
  if (!request.store) {
    std::vector<Reply> replies;
    for (auto& value : output) replies.push_back(value ? Reply::bulk(std::move(*value)) : Reply::nil());
    return Reply::array(std::move(replies));
  }
  List stored;
  for (auto& value : output) stored.push_back(value ? std::move(*value) : std::string());
  const auto stored_size = static_cast<std::int64_t>(stored.size());
  if (stored.empty()) ctx.keys.remove_stored(*request.store);
  else ctx.keys.put(*request.store, Value{std::move(stored)}, /*keep_ttl=*/false);
  return Reply::integer_reply(stored_size);
}

}  // namespace

Reply sort(CommandContext& ctx) { return sort_command(ctx, false); }
Reply sort_ro(CommandContext& ctx) { return sort_command(ctx, true); }

}  // namespace lockcheck::mock::cmd
