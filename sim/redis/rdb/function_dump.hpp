#pragma once
// FUNCTION DUMP's payload as redis-server 7.0.15 writes and reads it: an RDB fragment of one FUNCTION2 opcode
// (245) and the library's code as an RDB string per library, then the RDB version (10, little endian) and the
// CRC-64 (Jones, as Redis's crc64) of all before it, little endian. The mock writes codes uncompressed (valid
// RDB); it reads Redis's LZF-compressed and integer-encoded strings too, and the older FUNCTION opcode (246).
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "redis/rdb/rdb_io.hpp"

namespace lockcheck::mock {

std::string dump_function_codes(const std::vector<std::string>& codes);

// The codes in a payload, or Redis's error text (without "ERR "): "payload version or checksum are wrong"
// comes first, then the opcode and string errors of functionRestoreCommand / rdbFunctionLoad.
struct ReadPayloadError {
  std::string text;
  bool bad_footer = false;  // version or checksum: worded by the caller ("DUMP payload ...")
};
std::variant<std::vector<std::string>, ReadPayloadError> read_function_payload(std::string_view payload);

}  // namespace lockcheck::mock
