#include "redis/types/set/set_access.hpp"

namespace lockcheck::mock {

void settle_set(Keyspace& keys, std::string_view key, const Set& set, bool changed) {
  if (set.empty()) keys.remove(key);
  else if (changed) keys.modified(key);
}

Reply set_reply(const Set& set) {
  std::vector<Reply> members;
  members.reserve(set.size());
  for (const std::string& member : set) members.push_back(Reply::bulk(member));
  return Reply::set(std::move(members));
}

Reply store_set(Keyspace& keys, std::string_view key, Set result) {
  const auto size = static_cast<std::int64_t>(result.size());
  if (result.empty()) keys.remove(key);
  else keys.put(key, Value{std::move(result)}, /*keep_ttl=*/false);
  return Reply::integer_reply(size);
}

}  // namespace lockcheck::mock
