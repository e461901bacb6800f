#pragma once
// A stream's RDB object as redis-server 7.0.15 writes it (rdbSaveObject, RDB_TYPE_STREAM_LISTPACKS_2): the
// radix tree's listpacks under their 16-byte big-endian master IDs, the length, last, first and max-deleted
// IDs, entries-added, then each group (name, last-delivered ID, entries-read, its PEL with delivery time and
// count, its consumers with seen-time and their PEL IDs). Reads that type and 5.0-6.2's RDB_TYPE_STREAM_LISTPACKS,
// deriving what the older type lacks as rdbLoadObject does.
#include <optional>
#include <string>

#include "redis/rdb/rdb_io.hpp"
#include "redis/keyspace/stream.hpp"

namespace lockcheck::mock {

inline constexpr unsigned char kRdbTypeStreamListpacks = 15;
inline constexpr unsigned char kRdbTypeStreamListpacks2 = 19;

// The type byte and the object.
void put_stream(std::string& out, const Stream& stream);
// The object after its type byte; nullopt where Redis reports a corrupt payload or the mock could not hold
// what Redis would load without a deep check (README, known differences).
std::optional<Stream> read_stream(RdbReader& reader, unsigned char type);

}  // namespace lockcheck::mock
