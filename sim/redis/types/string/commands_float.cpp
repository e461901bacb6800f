// INCRBYFLOAT and HINCRBYFLOAT: long double sums printed as Redis prints them (long_double.hpp), with
// 7.0.15's order of checks and error texts.
#include <cmath>

#include "redis/types/string/string_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/util/long_double.hpp"

namespace lockcheck::mock::cmd {
namespace {

constexpr std::string_view kNanOrInf = "ERR increment would produce NaN or Infinity";

}  // namespace

Reply incrbyfloat(CommandContext& ctx) {
  const std::string& key = ctx.args[1];
  Entry* entry = ctx.keys.find(key);
  std::string* text = entry == nullptr ? nullptr : std::get_if<std::string>(&entry->value);
  if (entry != nullptr && text == nullptr) return err::wrong_type();
  const auto current = text == nullptr ? std::optional<long double>(0.0L) : parse_long_double(*text);
  if (!current) return err::reply(err::kNotFloat);
  const auto increment = parse_long_double(ctx.args[2]);
  if (!increment) return err::reply(err::kNotFloat);
  const long double sum = *current + *increment;
  if (std::isnan(sum) || std::isinf(sum)) return err::reply(kNanOrInf);
  std::string result = format_long_double_human(sum);
  if (text == nullptr) {
    entry = &ctx.keys.add(key, Value{result});
  } else {
    *text = result;  // the deadline stays (dbOverwrite)
    ctx.keys.modified(key);
  }
  // A new string object from the digits, never tried as an integer (createStringObjectFromLongDouble).
  entry->encoding = result.size() <= kEmbstrMaxBytes ? Encoding::embstr : Encoding::raw;
  return Reply::bulk(std::move(result));
}

Reply hincrbyfloat(CommandContext& ctx) {
  const auto increment = parse_long_double(ctx.args[3]);
  if (!increment) return err::reply(err::kNotFloat);
  if (std::isnan(*increment) || std::isinf(*increment)) return Reply::error("ERR value is NaN or Infinity");
  const std::string& key = ctx.args[1];
  Entry* entry = ctx.keys.find(key);
  Hash* hash = entry == nullptr ? nullptr : std::get_if<Hash>(&entry->value);
  if (entry != nullptr && hash == nullptr) return err::wrong_type();
  long double current = 0;
  if (const std::string* field = hash == nullptr ? nullptr : hash_find(*hash, ctx.args[2]); field != nullptr) {
    const auto parsed = parse_long_double(*field);
    if (!parsed) return Reply::error("ERR hash value is not a float");
    current = *parsed;
  }
  const long double sum = current + *increment;
  if (std::isnan(sum) || std::isinf(sum)) return err::reply(kNanOrInf);
  std::string result = format_long_double_human(sum);
  const bool created = hash == nullptr;
  if (created) hash = &std::get<Hash>(ctx.keys.add(key, Value{Hash{}}).value);
  hash_set(*hash, ctx.args[2], result);
  if (!created) ctx.keys.modified(key);
  return Reply::bulk(std::move(result));
}

}  // namespace lockcheck::mock::cmd
