#pragma once
// A key beside a lock key, for a lock's own bookkeeping (a reentrant request's record, a read-write hold given
// back): "<key>:<kind>:{<slot part>}:<id>", the slot part being what Redis Cluster hashes in `key` (its hash tag,
// or the whole key), so the key shares the lock key's slot (one script may touch both) and its prefix (for ACL
// key patterns). A key with braces but no hash tag cannot be given its slot that way: "<key>:<kind>:<id>" (give
// such a key a hash tag in Cluster).
#include <string>

namespace lockcheck::detail {

std::string same_slot_key(const std::string& key, const std::string& kind, const std::string& id);

}  // namespace lockcheck::detail
