#pragma once
// DUMP's payload for one key as redis-server 7.0.15 writes it (createDumpPayload): the RDB object type, the
// value in the encoding the key has (string; list as quicklist of listpacks; hash and
// sorted set as listpack or as their hashtable/skiplist element lists; set as intset or hashtable; stream as
// rdb_stream.hpp), then the footer (rdb_io.hpp). Difference: hashtable-encoded hashes and sets go in the mock's
// order (Redis's is its dict's). Reading takes every type 7.0.15 restores except modules and the 2.x zipmap,
// and gives the encoding Redis converts to on load under the current limits.
#include <optional>
#include <string>
#include <string_view>

#include "redis/keyspace/encoding.hpp"
#include "redis/keyspace/value.hpp"

namespace lockcheck::mock {

// `list_max_listpack_size` is CONFIG list-max-listpack-size: how many bytes (negative: -1 = 4 KiB ... -5 =
// 64 KiB) or elements (positive) a quicklist node holds.
std::string dump_value(const Value& value, Encoding encoding, std::int64_t list_max_listpack_size);

struct RestoredValue {
  Value value;
  Encoding encoding;
};
// The value in a payload whose footer is valid; nullopt is Redis's "Bad data format".
std::optional<RestoredValue> restore_value(std::string_view payload, const EncodingLimits& limits);

}  // namespace lockcheck::mock
