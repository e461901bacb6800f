// Iterating the keyspace: KEYS, SCAN (MATCH, COUNT, TYPE), HSCAN (MATCH, COUNT) and RANDOMKEY, with Redis
// 7.0's order of checks: the cursor, then the options, then the walk; MATCH and TYPE filter a page after
// it was taken, so a page may come back short or empty with a cursor that is not 0.
#include <limits>

#include "redis/commands/keys/keys_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/util/glob.hpp"
#include "redis/util/numbers.hpp"
#include "redis/keyspace/scan_cursor.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock::cmd {
namespace {

// Redis encodes a hash of up to hash-max-listpack-entries fields as a listpack, which HSCAN returns whole
// (cursor 0) in insertion order; the mock keeps that order for any size, so it pages only above this.
constexpr std::size_t kListpackEntries = 128;

struct ScanOptions {
  std::size_t count = 10;
  std::optional<std::string_view> pattern;  // none: every name (also for MATCH *)
  std::optional<std::string_view> type;
};

// Parses [COUNT n] [MATCH p] [TYPE t] from `first`; TYPE only for SCAN. Returns the error, if any.
std::optional<Reply> parse_options(const Command& args, std::size_t first, bool allow_type, ScanOptions& options) {
  for (std::size_t i = first; i < args.size(); i += 2) {
    const bool has_value = i + 1 < args.size();
    if (iequals(args[i], "count") && has_value) {
      auto count = parse_int64(args[i + 1]);
      if (!count) return err::not_integer();
      if (*count < 1) return err::syntax();
      options.count = static_cast<std::size_t>(*count);
    } else if (iequals(args[i], "match") && has_value) {
      options.pattern = args[i + 1] == "*" ? std::nullopt : std::optional<std::string_view>(args[i + 1]);
    } else if (iequals(args[i], "type") && allow_type && has_value) {
      options.type = args[i + 1];
    } else {
      return err::syntax();
    }
  }
  return std::nullopt;
}

bool matches(const ScanOptions& options, std::string_view name) {
  return !options.pattern || glob_match(*options.pattern, name);
}

Reply scan_reply(std::uint64_t cursor, std::vector<Reply> elements) {
  return Reply::array({Reply::bulk(std::to_string(cursor)), Reply::array(std::move(elements))});
}

}  // namespace

Reply keys(CommandContext& ctx) {
  const std::string_view pattern = ctx.args[1];
  const bool all = pattern == "*";
  std::vector<Reply> names;
  for (const auto& [key, entry] : ctx.keys.current().entries) {
    if ((all || glob_match(pattern, key)) && !ctx.keys.expired_in_place(key)) names.push_back(Reply::bulk(key));
  }
  return Reply::array(std::move(names));
}

Reply scan(CommandContext& ctx) {
  const auto cursor = parse_scan_cursor(ctx.args[1]);
  if (!cursor) return Reply::error("ERR invalid cursor");
  ScanOptions options;
  if (auto error = parse_options(ctx.args, 2, /*allow_type=*/true, options)) return std::move(*error);
  std::vector<std::string_view> names;
  names.reserve(ctx.keys.size());
  for (const auto& [key, entry] : ctx.keys.current().entries) names.push_back(key);
  const ScanPage page = scan_page(names, *cursor, options.count);
  // Copies: looking a name up may reclaim it (an expired key), which frees the string the page points to.
  std::vector<std::string> taken(page.names.begin(), page.names.end());
  std::vector<Reply> elements;
  for (const std::string& key : taken) {
    if (!matches(options, key)) continue;
    const Entry* entry = ctx.keys.peek(key);  // reclaims an expired key (left out), touches no other
    if (options.type) {
      // As 7.0.15: the TYPE lookup reclaims an expired key first, so `TYPE none` keeps it.
      if (!iequals(*options.type, entry == nullptr ? "none" : type_name(entry->value))) continue;
    } else if (entry == nullptr) {
      continue;
    }
    elements.push_back(Reply::bulk(key));
  }
  return scan_reply(page.next_cursor, std::move(elements));
}

Reply hscan(CommandContext& ctx) {
  const auto cursor = parse_scan_cursor(ctx.args[2]);
  if (!cursor) return Reply::error("ERR invalid cursor");
  Entry* entry = ctx.keys.find(ctx.args[1]);
  if (entry == nullptr) return scan_reply(0, {});
  const Hash* hash = std::get_if<Hash>(&entry->value);
  if (hash == nullptr) return err::wrong_type();
  ScanOptions options;
  if (auto error = parse_options(ctx.args, 3, /*allow_type=*/false, options)) return std::move(*error);
  std::vector<Reply> elements;
  auto add = [&](std::string_view field, const std::string& value) {
    if (!matches(options, field)) return;
    elements.push_back(Reply::bulk(std::string(field)));
    elements.push_back(Reply::bulk(value));
  };
  if (hash->size() <= kListpackEntries) {
    for (const auto& [field, value] : *hash) add(field, value);
    return scan_reply(0, std::move(elements));
  }
  std::vector<std::string_view> fields;
  fields.reserve(hash->size());
  for (const auto& [field, value] : *hash) fields.push_back(field);
  const ScanPage page = scan_page(fields, *cursor, options.count);
  for (std::string_view field : page.names) add(field, *hash_find(*hash, field));
  return scan_reply(page.next_cursor, std::move(elements));
}

Reply randomkey(CommandContext& ctx) {
  // dbRandomKey: an expired key that is drawn is reclaimed and another drawn; each round removes one, so
  // at most size() + 1 rounds.
  for (std::size_t round = 0, limit = ctx.keys.size() + 1; round < limit && ctx.keys.size() > 0; ++round) {
    auto it = ctx.keys.current().entries.begin();
    std::advance(it, static_cast<std::ptrdiff_t>(ctx.keys.next_random() % ctx.keys.size()));
    const std::string key = it->first;
    if (ctx.keys.peek(key) != nullptr) return Reply::bulk(key);
  }
  return Reply::nil();
}

}  // namespace lockcheck::mock::cmd
