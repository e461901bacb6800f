#pragma once
// The internal encoding Redis 7.0.15 reports for a value (OBJECT ENCODING), kept per key by the keyspace.
// Redis chooses an encoding when it creates a value and converts it when it outgrows the small form, never
// back (7.0 has no shrinking conversion; lists are always quicklist). The mock follows those rules, not
// the layouts: every value is stored the same way whatever its encoding says.
#include <cstdint>
#include <string_view>

#include "redis/keyspace/value.hpp"

namespace lockcheck::mock {

enum class Encoding : std::uint8_t {
  unsettled,  // just written: the natural encoding of its content (set at the end of the command)
  int_,
  embstr,
  raw,
  listpack,
  hashtable,
  quicklist,
  intset,
  skiplist,
  stream,
};

// The name OBJECT ENCODING prints ("int", "embstr", ... ); "unsettled" never reaches a client.
std::string_view encoding_name(Encoding encoding);

// The thresholds of Redis's conversions (CONFIG hash-max-listpack-*, set-max-intset-entries, zset-max-listpack-*),
// with Redis 7.0.15's defaults.
struct EncodingLimits {
  std::int64_t hash_max_listpack_entries = 512;
  std::int64_t hash_max_listpack_value = 64;
  std::int64_t set_max_intset_entries = 512;
  std::int64_t zset_max_listpack_entries = 128;
  std::int64_t zset_max_listpack_value = 64;
  StreamNodeLimits stream_node;  // stream-node-max-entries / -bytes: where a stream starts a new node
};

// Redis stores strings up to 44 bytes in one allocation with the object (OBJ_ENCODING_EMBSTR_SIZE_LIMIT).
inline constexpr std::size_t kEmbstrMaxBytes = 44;

// A string as SET stores it: int when it reads as a 64-bit integer in canonical form, embstr up to 44 bytes.
Encoding string_encoding(std::string_view text);

// The encoding a value created as a whole gets (SET, SINTERSTORE, ZRANGESTORE, a first HSET, ...).
Encoding natural_encoding(const Value& value, const EncodingLimits& limits);

// After `value` changed in place: the small encodings it outgrew are converted, the others kept.
Encoding grown_encoding(Encoding current, const Value& value, const EncodingLimits& limits);

}  // namespace lockcheck::mock
