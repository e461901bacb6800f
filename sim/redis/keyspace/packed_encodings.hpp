#pragma once
// The byte layouts of Redis's small encodings: listpack (7.0's hashes, sorted sets, quicklist nodes and stream
// nodes), ziplist (what older RDB versions wrote; read only) and intset. A value's own encodings: a stream node
// sizes its listpack with them (stream_node.cpp) and RDB payloads carry them (rdb/).
// Readers validate the whole structure (headers, lengths, terminators) and fail instead of guessing.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lockcheck::mock {

// lpNew + lpAppend of each element: integers in canonical form take the smallest integer encoding.
std::string encode_listpack(const std::vector<std::string_view>& elements);
// The size one element adds to a listpack (encoding, data and back length), for quicklist node filling.
std::size_t listpack_entry_bytes(std::string_view element);
std::optional<std::vector<std::string>> decode_listpack(std::string_view blob);
std::optional<std::vector<std::string>> decode_ziplist(std::string_view blob);

// An intset of the narrowest width (2, 4 or 8 bytes) that holds every value, sorted ascending.
std::string encode_intset(const std::vector<std::int64_t>& sorted_values);
std::optional<std::vector<std::int64_t>> decode_intset(std::string_view blob);

}  // namespace lockcheck::mock
