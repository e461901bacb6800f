#include "redis/keyspace/value.hpp"

#include <algorithm>

#include "redis/util/numbers.hpp"

namespace lockcheck::mock {

const char* type_name(const Value& value) {
  switch (value.index()) {
    case 0: return "string";
    case 1: return "hash";
    case 2: return "list";
    case 3: return "zset";
    case 4: return "set";
    case 5: return "stream";
  }
  return "none";
}

const std::string* hash_find(const Hash& hash, std::string_view field) {
  for (const auto& [name, value] : hash) {
    if (name == field) return &value;
  }
  return nullptr;
}

std::string* hash_find(Hash& hash, std::string_view field) {
  for (auto& [name, value] : hash) {
    if (name == field) return &value;
  }
  return nullptr;
}

bool hash_set(Hash& hash, std::string_view field, std::string_view value) {
  if (std::string* existing = hash_find(hash, field)) {
    existing->assign(value);
    return false;
  }
  hash.emplace_back(std::string(field), std::string(value));
  return true;
}

bool hash_erase(Hash& hash, std::string_view field) {
  auto it = std::find_if(hash.begin(), hash.end(), [&](const auto& entry) { return entry.first == field; });
  if (it == hash.end()) return false;
  hash.erase(it);  // keeps the order of the others, as listpack deletion does
  return true;
}

bool SetOrder::operator()(std::string_view a, std::string_view b) const {
  const auto a_number = parse_int64(a);
  const auto b_number = parse_int64(b);
  if (a_number && b_number) return *a_number < *b_number;
  if (a_number.has_value() != b_number.has_value()) return a_number.has_value();
  return a < b;
}

bool zset_put(ZSet& zset, const std::string& member, double score) {
  auto it = zset.score_of.find(member);
  if (it != zset.score_of.end()) {
    zset.by_score.erase({it->second, member});
    it->second = score;
    zset.by_score.insert({score, member});
    return false;
  }
  zset.score_of.emplace(member, score);
  zset.by_score.insert({score, member});
  return true;
}

bool zset_erase(ZSet& zset, std::string_view member) {
  auto it = zset.score_of.find(member);
  if (it == zset.score_of.end()) return false;
  zset.by_score.erase({it->second, it->first});
  zset.score_of.erase(it);
  return true;
}

}  // namespace lockcheck::mock
