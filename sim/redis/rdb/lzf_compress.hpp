#pragma once
// liblzf's compressor as redis-server 7.0.15 builds it (HLOG 16, VERY_FAST, a fresh hash table), so that DUMP
// writes the bytes Redis writes for strings and listpacks longer than 20 bytes (rdbSaveLzfStringObject).
#include <optional>
#include <string>
#include <string_view>

namespace lockcheck::mock {

// The compressed form of `in` when it fits in in.size() - 4 bytes (Redis's "at least four bytes saved"),
// else nullopt: Redis then stores the string verbatim.
std::optional<std::string> lzf_compress(std::string_view in);

}  // namespace lockcheck::mock
