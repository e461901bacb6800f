#include "redis/keyspace/encoding.hpp"

#include <algorithm>

#include "redis/util/numbers.hpp"

namespace lockcheck::mock {
namespace {

std::size_t as_size(std::int64_t limit) { return static_cast<std::size_t>(std::max<std::int64_t>(0, limit)); }

bool hash_fits_listpack(const Hash& hash, const EncodingLimits& limits) {
  if (hash.size() > as_size(limits.hash_max_listpack_entries)) return false;
  const std::size_t max_bytes = as_size(limits.hash_max_listpack_value);
  return std::all_of(hash.begin(), hash.end(), [max_bytes](const auto& entry) {
    return entry.first.size() <= max_bytes && entry.second.size() <= max_bytes;
  });
}

bool set_fits_intset(const Set& set, const EncodingLimits& limits) {
  // Redis caps the intset at 2^30 entries whatever the configuration says.
  const std::size_t max_entries = std::min<std::size_t>(as_size(limits.set_max_intset_entries), std::size_t{1} << 30);
  if (set.size() > max_entries) return false;
  // SetOrder puts integers first: only the last member needs checking.
  return set.empty() || parse_int64(*set.rbegin()).has_value();
}

bool zset_fits_listpack(const ZSet& zset, const EncodingLimits& limits) {
  if (zset.score_of.size() > as_size(limits.zset_max_listpack_entries)) return false;
  const std::size_t max_bytes = as_size(limits.zset_max_listpack_value);
  return std::all_of(zset.score_of.begin(), zset.score_of.end(),
                     [max_bytes](const auto& entry) { return entry.first.size() <= max_bytes; });
}

}  // namespace

std::string_view encoding_name(Encoding encoding) {
  switch (encoding) {
    case Encoding::unsettled: return "unsettled";
    case Encoding::int_: return "int";
    case Encoding::embstr: return "embstr";
    case Encoding::raw: return "raw";
    case Encoding::listpack: return "listpack";
    case Encoding::hashtable: return "hashtable";
    case Encoding::quicklist: return "quicklist";
    case Encoding::intset: return "intset";
    case Encoding::skiplist: return "skiplist";
    case Encoding::stream: return "stream";
  }
  return "unknown";
}

Encoding string_encoding(std::string_view text) {
  if (parse_int64(text)) return Encoding::int_;
  return text.size() <= kEmbstrMaxBytes ? Encoding::embstr : Encoding::raw;
}

Encoding natural_encoding(const Value& value, const EncodingLimits& limits) {
  return std::visit(
      [&limits](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::string>) return string_encoding(v);
        if constexpr (std::is_same_v<T, Hash>) return hash_fits_listpack(v, limits) ? Encoding::listpack : Encoding::hashtable;
        if constexpr (std::is_same_v<T, List>) return Encoding::quicklist;
        if constexpr (std::is_same_v<T, ZSet>) return zset_fits_listpack(v, limits) ? Encoding::listpack : Encoding::skiplist;
        if constexpr (std::is_same_v<T, Set>) return set_fits_intset(v, limits) ? Encoding::intset : Encoding::hashtable;
        if constexpr (std::is_same_v<T, StreamBox>) return Encoding::stream;
      },
      value);
}

Encoding grown_encoding(Encoding current, const Value& value, const EncodingLimits& limits) {
  if (current == Encoding::unsettled) return natural_encoding(value, limits);
  // Only the small container forms convert; strings keep what their command gave them.
  if (current != Encoding::listpack && current != Encoding::intset) return current;
  const Encoding natural = natural_encoding(value, limits);
  return natural == Encoding::listpack || natural == Encoding::intset ? current : natural;
}

}  // namespace lockcheck::mock
