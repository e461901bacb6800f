#include "lockcheck/variants/same_slot_key.hpp"

#include "lockcheck/assert.hpp"

namespace lockcheck::detail {

std::string same_slot_key(const std::string& key, const std::string& kind, const std::string& id) {
  // Without an id every such key of the lock would be one, and one request would read another's.
  LOCKCHECK_ASSERT(!id.empty() && !kind.empty());
  // Redis Cluster's rule: the slot is the hash of what lies between the first '{' and the first '}' after it,
  // when that is not empty; otherwise of the whole key.
  std::string slot_part = key;
  if (const std::size_t open = key.find('{'); open != std::string::npos) {
    const std::size_t close = key.find('}', open + 1);
    if (close != std::string::npos && close > open + 1) slot_part = key.substr(open + 1, close - open - 1);
  }
  // Appending keeps a hash tag where it is; a key without one is hashed whole, which "{<key>}" reproduces
  // unless the key holds a brace of its own.
  if (slot_part == key && key.find_first_of("{}") != std::string::npos) return key + ":" + kind + ":" + id;
  return key + ":" + kind + ":{" + slot_part + "}:" + id;
}

}  // namespace lockcheck::detail
