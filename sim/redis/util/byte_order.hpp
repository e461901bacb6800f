#pragma once
// Fixed-width integers as bytes, the order stated: RDB payloads (rdb/) and Redis's packed encodings (listpack,
// intset: keyspace/packed_encodings.hpp) write both orders.
#include <cstdint>
#include <string>

namespace lockcheck::mock {

// The low `bytes` bytes of `value`, least significant first.
inline void put_little_endian(std::string& out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

// The low `bytes` bytes of `value`, most significant first.
inline void put_big_endian(std::string& out, std::uint64_t value, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

}  // namespace lockcheck::mock
