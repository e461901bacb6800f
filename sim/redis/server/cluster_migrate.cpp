// Moving a slot's keys to another node, as MIGRATE does (DUMP here, RESTORE there with the remaining TTL, DEL
// here): both nodes report it to their observers, the target as created (+ expire_set), the source as deleted,
// by no client (-1) with commands "restore" and "migrate".
#include "redis/server/node.hpp"

#include <string>
#include <vector>

namespace lockcheck::mock {

std::size_t Node::migrate_slot_keys(int slot, Node& target) {
  keyspace_.begin(options_.clock(), Actor{-1, "migrate", {}});
  target.keyspace_.begin(target.options_.clock(), Actor{-1, "restore", {}});
  std::vector<std::string> keys;
  for (const auto& [key, entry] : keyspace_.database(0).entries) {
    if (key_hash_slot(key) == slot) keys.push_back(key);
  }
  std::size_t moved = 0;
  for (const std::string& key : keys) {
    Entry* entry = keyspace_.find(key);  // an expired key is reclaimed here, not moved
    if (entry == nullptr) continue;
    Value value = entry->value;
    // A plain flag and value, not an optional: GCC 12 warned the optional's payload maybe-uninitialized.
    const bool has_ttl = entry->expire_at_ms.has_value();
    const std::int64_t ttl_ms = has_ttl ? *entry->expire_at_ms - keyspace_.now_ms() : 0;
    target.keyspace_.remove(key);  // RESTORE ... REPLACE
    target.keyspace_.add(key, std::move(value));
    if (has_ttl) target.keyspace_.set_expire(key, target.keyspace_.now_ms() + std::max<std::int64_t>(ttl_ms, 1));
    keyspace_.remove(key);
    ++moved;
  }
  return moved;
}

}  // namespace lockcheck::mock
