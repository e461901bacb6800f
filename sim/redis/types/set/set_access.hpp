#pragma once
// Shared by the set commands: typed lookup, the after-change bookkeeping, and the reply for members.
#include <string_view>

#include "redis/keyspace/keyspace.hpp"
#include "lockcheck/reply.hpp"
#include "redis/types/typed_lookup.hpp"

namespace lockcheck::mock {

inline Set* find_set(Keyspace& keys, std::string_view key, bool& wrong_type) { return find_typed<Set>(keys, key, wrong_type); }

// After members were removed: an empty set deletes its key, as Redis never keeps an empty aggregate.
void settle_set(Keyspace& keys, std::string_view key, const Set& set, bool changed);

// The members as a RESP3 set (an array on RESP2 connections).
Reply set_reply(const Set& set);

// Stores `result` at `key` replacing any value (or deletes the key when empty): the *STORE commands.
// Returns the reply, the stored cardinality.
Reply store_set(Keyspace& keys, std::string_view key, Set result);

}  // namespace lockcheck::mock
