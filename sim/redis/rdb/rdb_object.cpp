#include "redis/rdb/rdb_object.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "redis/util/numbers.hpp"
#include "redis/keyspace/packed_encodings.hpp"
#include "redis/rdb/rdb_io.hpp"
#include "redis/rdb/rdb_stream.hpp"

namespace lockcheck::mock {
namespace {

// RDB object types (rdb.h of 7.0.15).
enum RdbType : unsigned char {
  kString = 0,
  kListLinked = 1,
  kSet = 2,
  kZSetText = 3,
  kHash = 4,
  kZSet2 = 5,
  kListZiplist = 10,
  kSetIntset = 11,
  kZSetZiplist = 12,
  kHashZiplist = 13,
  kListQuicklist = 14,
  kHashListpack = 16,
  kZSetListpack = 17,
  kListQuicklist2 = 18,
};
constexpr std::uint64_t kQuicklistNodePlain = 1;
constexpr std::uint64_t kQuicklistNodePacked = 2;
constexpr std::size_t kListpackEmptyBytes = 7;       // header and terminator
constexpr std::size_t kQuicklistSafetyBytes = 8192;  // SIZE_SAFETY_LIMIT
constexpr std::array<std::size_t, 5> kQuicklistNodeBytes = {4096, 8192, 16384, 32768, 65536};

// Redis's d2string, how a listpack sorted set stores scores: integral values within 2^52 as integers.
std::string score_text(double score) {
  if (score == 0) return std::signbit(score) ? "-0" : "0";
  if (score > -4503599627370495.0 && score < 4503599627370496.0 && score == static_cast<double>(static_cast<std::int64_t>(score))) {
    return std::to_string(static_cast<std::int64_t>(score));
  }
  return format_double(score);
}

// _quicklistNodeAllowInsert of 7.0.15: whether a node of `node_bytes` and `node_count` takes an element of `size`.
bool quicklist_node_takes(std::size_t node_bytes, std::size_t node_count, std::size_t size, std::int64_t fill) {
  std::size_t overhead = size < 254 ? 1 : 5;
  overhead += size < 64 ? 1 : (size < 16384 ? 2 : 5);
  const std::size_t new_bytes = node_bytes + size + overhead;
  if (fill < 0) {
    const auto level = static_cast<std::size_t>(-(fill + 1));
    if (level < kQuicklistNodeBytes.size() && new_bytes <= kQuicklistNodeBytes[level]) return true;
  }
  if (new_bytes > kQuicklistSafetyBytes) return false;
  return static_cast<std::int64_t>(node_count) < fill;
}

void put_list(std::string& out, const List& list, std::int64_t fill) {
  std::vector<std::vector<std::string_view>> nodes;
  std::size_t node_bytes = 0;
  for (const std::string& element : list) {
    if (nodes.empty() || !quicklist_node_takes(node_bytes, nodes.back().size(), element.size(), fill)) {
      nodes.emplace_back();
      node_bytes = kListpackEmptyBytes;
    }
    nodes.back().push_back(element);
    node_bytes += listpack_entry_bytes(element);
  }
  out.push_back(static_cast<char>(kListQuicklist2));
  put_rdb_length(out, nodes.size());
  for (const auto& node : nodes) {
    put_rdb_length(out, kQuicklistNodePacked);
    put_rdb_string(out, encode_listpack(node));
  }
}

void put_hash(std::string& out, const Hash& hash, Encoding encoding) {
  if (encoding == Encoding::listpack) {
    std::vector<std::string_view> flat;
    for (const auto& [field, value] : hash) flat.insert(flat.end(), {field, value});
    out.push_back(static_cast<char>(kHashListpack));
    put_rdb_string(out, encode_listpack(flat));
    return;
  }
  out.push_back(static_cast<char>(kHash));
  put_rdb_length(out, hash.size());
  for (const auto& [field, value] : hash) {
    put_rdb_string(out, field);
    put_rdb_string(out, value);
  }
}

void put_zset(std::string& out, const ZSet& zset, Encoding encoding) {
  if (encoding == Encoding::listpack) {
    std::vector<std::string> scores;
    scores.reserve(zset.by_score.size());
    for (const auto& [score, member] : zset.by_score) scores.push_back(score_text(score));
    std::vector<std::string_view> flat;
    std::size_t i = 0;
    for (const auto& [score, member] : zset.by_score) flat.insert(flat.end(), {member, scores[i++]});
    out.push_back(static_cast<char>(kZSetListpack));
    put_rdb_string(out, encode_listpack(flat));
    return;
  }
  // rdbSaveObject walks the skiplist from its tail, so loading inserts each element at the head.
  out.push_back(static_cast<char>(kZSet2));
  put_rdb_length(out, zset.by_score.size());
  for (auto it = zset.by_score.rbegin(); it != zset.by_score.rend(); ++it) {
    put_rdb_string(out, it->second);
    put_rdb_double(out, it->first);
  }
}

void put_set(std::string& out, const Set& set, Encoding encoding) {
  if (encoding == Encoding::intset) {
    std::vector<std::int64_t> values;
    for (const std::string& member : set) values.push_back(parse_int64(member).value_or(0));  // SetOrder: ascending
    out.push_back(static_cast<char>(kSetIntset));
    put_rdb_string(out, encode_intset(values));
    return;
  }
  out.push_back(static_cast<char>(kSet));
  put_rdb_length(out, set.size());
  for (const std::string& member : set) put_rdb_string(out, member);
}

// The elements of a counted RDB list of strings (list, set, hash with `per_item` 2).
std::optional<std::vector<std::string>> read_strings(RdbReader& reader, std::size_t per_item) {
  auto count = reader.plain_length();
  if (!count || *count == 0 || *count > reader.left()) return std::nullopt;  // every item takes a byte at least
  std::vector<std::string> out;
  for (std::uint64_t i = 0; i < *count * per_item; ++i) {
    auto element = reader.string();
    if (!element) return std::nullopt;
    out.push_back(std::move(*element));
  }
  return out;
}

std::optional<std::vector<std::string>> read_packed(RdbReader& reader, bool listpack) {
  auto blob = reader.string();
  if (!blob) return std::nullopt;
  return listpack ? decode_listpack(*blob) : decode_ziplist(*blob);
}

std::optional<RestoredValue> hash_from_pairs(const std::vector<std::string>& flat, bool packed, const EncodingLimits& limits) {
  if (flat.empty() || flat.size() % 2 != 0) return std::nullopt;
  Hash hash;
  for (std::size_t i = 0; i < flat.size(); i += 2) {
    if (!hash_set(hash, flat[i], flat[i + 1])) return std::nullopt;  // a field twice: Redis refuses the payload
  }
  // Redis 7.0.15 converts a packed hash on its length only (a long value stays in the listpack); a
  // hashtable-typed one by both limits.
  Encoding encoding = natural_encoding(hash, limits);
  if (packed && static_cast<std::int64_t>(hash.size()) <= limits.hash_max_listpack_entries) encoding = Encoding::listpack;
  return RestoredValue{std::move(hash), encoding};
}

std::optional<RestoredValue> zset_from_pairs(const std::vector<std::string>& flat, const EncodingLimits& limits) {
  if (flat.empty() || flat.size() % 2 != 0) return std::nullopt;
  ZSet zset;
  for (std::size_t i = 0; i < flat.size(); i += 2) {
    auto score = parse_double(flat[i + 1]);
    if (!score || !zset_put(zset, flat[i], *score)) return std::nullopt;
  }
  // A packed sorted set converts on its length only (rdbLoadObject).
  const bool fits = static_cast<std::int64_t>(zset.score_of.size()) <= limits.zset_max_listpack_entries;
  return RestoredValue{std::move(zset), fits ? Encoding::listpack : Encoding::skiplist};
}

std::optional<RestoredValue> zset_from_scored(RdbReader& reader, bool binary_scores, const EncodingLimits& limits) {
  auto count = reader.plain_length();
  if (!count || *count == 0 || *count > reader.left()) return std::nullopt;
  ZSet zset;
  for (std::uint64_t i = 0; i < *count; ++i) {
    auto member = reader.string();
    if (!member) return std::nullopt;
    auto score = binary_scores ? reader.binary_double() : reader.text_double();
    if (!score || std::isnan(*score) || !zset_put(zset, *member, *score)) return std::nullopt;
  }
  const Encoding encoding = natural_encoding(zset, limits);
  return RestoredValue{std::move(zset), encoding};
}

std::optional<RestoredValue> set_from_members(std::vector<std::string> members, const EncodingLimits& limits) {
  Set set;
  for (std::string& member : members) {
    if (!set.insert(std::move(member)).second) return std::nullopt;
  }
  const Encoding encoding = natural_encoding(set, limits);
  return RestoredValue{std::move(set), encoding};
}

std::optional<RestoredValue> set_from_intset(RdbReader& reader, const EncodingLimits& limits) {
  auto blob = reader.string();
  if (!blob) return std::nullopt;
  auto values = decode_intset(*blob);
  if (!values) return std::nullopt;
  Set set;
  for (std::int64_t value : *values) set.insert(std::to_string(value));
  const bool fits = static_cast<std::int64_t>(set.size()) <= limits.set_max_intset_entries;
  return RestoredValue{std::move(set), fits ? Encoding::intset : Encoding::hashtable};
}

// RDB_TYPE_LIST_QUICKLIST (ziplist nodes) and _2 (listpack or plain nodes): the nodes' elements in order.
std::optional<RestoredValue> list_from_quicklist(RdbReader& reader, bool listpack_nodes) {
  auto nodes = reader.plain_length();
  if (!nodes || *nodes == 0 || *nodes > reader.left()) return std::nullopt;
  List list;
  for (std::uint64_t i = 0; i < *nodes; ++i) {
    std::uint64_t container = kQuicklistNodePacked;
    if (listpack_nodes) {
      auto read = reader.plain_length();
      if (!read || (*read != kQuicklistNodePlain && *read != kQuicklistNodePacked)) return std::nullopt;
      container = *read;
    }
    auto blob = reader.string();
    if (!blob) return std::nullopt;
    if (container == kQuicklistNodePlain) {
      list.push_back(std::move(*blob));
      continue;
    }
    auto elements = listpack_nodes ? decode_listpack(*blob) : decode_ziplist(*blob);
    if (!elements) return std::nullopt;
    list.insert(list.end(), elements->begin(), elements->end());  // an empty node is skipped, as Redis does
  }
  if (list.empty()) return std::nullopt;
  return RestoredValue{std::move(list), Encoding::quicklist};
}

std::optional<RestoredValue> as_list(std::optional<std::vector<std::string>> elements) {
  if (!elements || elements->empty()) return std::nullopt;
  return RestoredValue{List(elements->begin(), elements->end()), Encoding::quicklist};
}

}  // namespace

std::string dump_value(const Value& value, Encoding encoding, std::int64_t list_max_listpack_size) {
  std::string out;
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::string>) {
          out.push_back(static_cast<char>(kString));
          put_rdb_string(out, v);
        } else if constexpr (std::is_same_v<T, List>) {
          put_list(out, v, list_max_listpack_size);
        } else if constexpr (std::is_same_v<T, Hash>) {
          put_hash(out, v, encoding);
        } else if constexpr (std::is_same_v<T, ZSet>) {
          put_zset(out, v, encoding);
        } else if constexpr (std::is_same_v<T, Set>) {
          put_set(out, v, encoding);
        } else if constexpr (std::is_same_v<T, StreamBox>) {
          put_stream(out, v.get());
        }
      },
      value);
  append_dump_footer(out);
  return out;
}

std::optional<RestoredValue> restore_value(std::string_view payload, const EncodingLimits& limits) {
  // Redis reads the object from the whole payload: a short one may run into its own footer and still load.
  RdbReader reader(payload);
  auto type = reader.byte();
  if (!type) return std::nullopt;
  switch (*type) {
    case kString: {
      auto text = reader.string();
      if (!text) return std::nullopt;
      const Encoding encoding = string_encoding(*text);
      return RestoredValue{std::move(*text), encoding};
    }
    case kListLinked: return as_list(read_strings(reader, 1));
    case kListZiplist: return as_list(read_packed(reader, false));
    case kListQuicklist: return list_from_quicklist(reader, false);
    case kListQuicklist2: return list_from_quicklist(reader, true);
    case kSet: {
      auto members = read_strings(reader, 1);
      if (!members) return std::nullopt;
      return set_from_members(std::move(*members), limits);
    }
    case kSetIntset: return set_from_intset(reader, limits);
    case kHash: {
      auto flat = read_strings(reader, 2);
      if (!flat) return std::nullopt;
      return hash_from_pairs(*flat, false, limits);
    }
    case kHashZiplist:
    case kHashListpack: {
      auto flat = read_packed(reader, *type == kHashListpack);
      if (!flat) return std::nullopt;
      return hash_from_pairs(*flat, true, limits);
    }
    case kZSetText: return zset_from_scored(reader, false, limits);
    case kZSet2: return zset_from_scored(reader, true, limits);
    case kZSetZiplist:
    case kZSetListpack: {
      auto flat = read_packed(reader, *type == kZSetListpack);
      if (!flat) return std::nullopt;
      return zset_from_pairs(*flat, limits);
    }
    case kRdbTypeStreamListpacks:
    case kRdbTypeStreamListpacks2: {
      auto stream = read_stream(reader, *type);
      if (!stream) return std::nullopt;
      StreamBox box;
      box.get() = std::move(*stream);
      return RestoredValue{std::move(box), Encoding::stream};
    }
    default: return std::nullopt;  // modules, zipmap, 7.2's types: what 7.0.15 does not load either
  }
}

}  // namespace lockcheck::mock
