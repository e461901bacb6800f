// Hash commands. Small hashes keep insertion order like Redis's listpack encoding.
#include <limits>

#include "redis/types/hash/hash_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/util/numbers.hpp"

namespace lockcheck::mock::cmd {
namespace {

// The hash at args[1], nullptr if absent; sets `wrong_type` when the key holds another type.
Hash* find_hash(CommandContext& ctx, bool& wrong_type) {
  wrong_type = false;
  Entry* entry = ctx.keys.find(ctx.args[1]);
  if (entry == nullptr) return nullptr;
  Hash* hash = std::get_if<Hash>(&entry->value);
  wrong_type = hash == nullptr;
  return hash;
}

// Removes the key when its last field is gone, as Redis does.
void drop_if_empty(CommandContext& ctx, const Hash& hash) {
  if (hash.empty()) ctx.keys.remove(ctx.args[1]);
}

// HKEYS / HVALS: the fields or the values, in the hash's order.
Reply hash_column(CommandContext& ctx, bool values) {
  bool wrong_type = false;
  Hash* hash = find_hash(ctx, wrong_type);
  if (wrong_type) return err::wrong_type();
  std::vector<Reply> out;
  if (hash != nullptr) {
    out.reserve(hash->size());
    for (const auto& [field, value] : *hash) out.push_back(Reply::bulk(values ? value : field));
  }
  return Reply::array(std::move(out));
}

}  // namespace

Reply hset(CommandContext& ctx) {
  if (ctx.args.size() % 2 != 0) return err::arity("hset");
  bool wrong_type = false;
  Hash* hash = find_hash(ctx, wrong_type);
  if (wrong_type) return err::wrong_type();
  bool created = hash == nullptr;
  if (created) hash = &std::get<Hash>(ctx.keys.add(ctx.args[1], Value{Hash{}}).value);
  std::int64_t added = 0;
  for (std::size_t i = 2; i + 1 < ctx.args.size(); i += 2) added += hash_set(*hash, ctx.args[i], ctx.args[i + 1]) ? 1 : 0;
  if (!created) ctx.keys.modified(ctx.args[1]);
  return Reply::integer_reply(added);
}

Reply hget(CommandContext& ctx) {
  bool wrong_type = false;
  Hash* hash = find_hash(ctx, wrong_type);
  if (wrong_type) return err::wrong_type();
  const std::string* value = hash == nullptr ? nullptr : hash_find(*hash, ctx.args[2]);
  return value == nullptr ? Reply::nil() : Reply::bulk(*value);
}

Reply hmget(CommandContext& ctx) {
  bool wrong_type = false;
  Hash* hash = find_hash(ctx, wrong_type);
  if (wrong_type) return err::wrong_type();
  std::vector<Reply> out;
  for (std::size_t i = 2; i < ctx.args.size(); ++i) {
    const std::string* value = hash == nullptr ? nullptr : hash_find(*hash, ctx.args[i]);
    out.push_back(value == nullptr ? Reply::nil() : Reply::bulk(*value));
  }
  return Reply::array(std::move(out));
}

Reply hdel(CommandContext& ctx) {
  bool wrong_type = false;
  Hash* hash = find_hash(ctx, wrong_type);
  if (wrong_type) return err::wrong_type();
  if (hash == nullptr) return Reply::integer_reply(0);
  std::int64_t removed = 0;
  for (std::size_t i = 2; i < ctx.args.size() && !hash->empty(); ++i) removed += hash_erase(*hash, ctx.args[i]) ? 1 : 0;
  if (hash->empty()) {
    drop_if_empty(ctx, *hash);
  } else if (removed > 0) {
    ctx.keys.modified(ctx.args[1]);
  }
  return Reply::integer_reply(removed);
}

Reply hexists(CommandContext& ctx) {
  bool wrong_type = false;
  Hash* hash = find_hash(ctx, wrong_type);
  if (wrong_type) return err::wrong_type();
  return Reply::integer_reply(hash != nullptr && hash_find(*hash, ctx.args[2]) != nullptr ? 1 : 0);
}

Reply hincrby(CommandContext& ctx) {
  auto delta = parse_int64(ctx.args[3]);
  if (!delta) return err::not_integer();
  bool wrong_type = false;
  Hash* hash = find_hash(ctx, wrong_type);
  if (wrong_type) return err::wrong_type();
  std::int64_t current = 0;
  const std::string* field = hash == nullptr ? nullptr : hash_find(*hash, ctx.args[2]);
  if (field != nullptr) {
    auto parsed = parse_int64(*field);
    if (!parsed) return Reply::error("ERR hash value is not an integer");
    current = *parsed;
  }
  constexpr std::int64_t max = std::numeric_limits<std::int64_t>::max();
  constexpr std::int64_t min = std::numeric_limits<std::int64_t>::min();
  if ((*delta < 0 && current < 0 && *delta < min - current) || (*delta > 0 && current > 0 && *delta > max - current)) {
    return err::reply(err::kOverflow);
  }
  std::int64_t result = current + *delta;
  bool created = hash == nullptr;
  if (created) hash = &std::get<Hash>(ctx.keys.add(ctx.args[1], Value{Hash{}}).value);
  hash_set(*hash, ctx.args[2], std::to_string(result));
  if (!created) ctx.keys.modified(ctx.args[1]);
  return Reply::integer_reply(result);
}

Reply hlen(CommandContext& ctx) {
  bool wrong_type = false;
  Hash* hash = find_hash(ctx, wrong_type);
  if (wrong_type) return err::wrong_type();
  return Reply::integer_reply(hash == nullptr ? 0 : static_cast<std::int64_t>(hash->size()));
}

Reply hgetall(CommandContext& ctx) {
  bool wrong_type = false;
  Hash* hash = find_hash(ctx, wrong_type);
  if (wrong_type) return err::wrong_type();
  std::vector<Reply> out;
  if (hash != nullptr) {
    out.reserve(hash->size() * 2);
    for (const auto& [field, value] : *hash) {
      out.push_back(Reply::bulk(field));
      out.push_back(Reply::bulk(value));
    }
  }
  return Reply::map(std::move(out));
}

Reply hsetnx(CommandContext& ctx) {
  bool wrong_type = false;
  Hash* hash = find_hash(ctx, wrong_type);
  if (wrong_type) return err::wrong_type();
  if (hash != nullptr && hash_find(*hash, ctx.args[2]) != nullptr) return Reply::integer_reply(0);
  if (hash == nullptr) {
    hash = &std::get<Hash>(ctx.keys.add(ctx.args[1], Value{Hash{}}).value);
    hash_set(*hash, ctx.args[2], ctx.args[3]);
  } else {
    hash_set(*hash, ctx.args[2], ctx.args[3]);
    ctx.keys.modified(ctx.args[1]);
  }
  return Reply::integer_reply(1);
}

Reply hmset(CommandContext& ctx) {
  if (ctx.args.size() % 2 != 0) return err::arity("hmset");
  Reply added = hset(ctx);
  return added.is_error() ? added : Reply::ok();
}

Reply hkeys(CommandContext& ctx) { return hash_column(ctx, false); }
Reply hvals(CommandContext& ctx) { return hash_column(ctx, true); }

Reply hstrlen(CommandContext& ctx) {
  bool wrong_type = false;
  Hash* hash = find_hash(ctx, wrong_type);
  if (wrong_type) return err::wrong_type();
  const std::string* value = hash == nullptr ? nullptr : hash_find(*hash, ctx.args[2]);
  return Reply::integer_reply(value == nullptr ? 0 : static_cast<std::int64_t>(value->size()));
}

}  // namespace lockcheck::mock::cmd
