#pragma once
// The pieces of Redis's RDB format that DUMP/RESTORE and FUNCTION DUMP/RESTORE share: length prefixes, strings
// (plain, integer-encoded, LZF-compressed both ways), the payload footer (RDB version 10 little endian, then the CRC-64 of
// everything before it, little endian) and Redis's crc64.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lockcheck::mock {

inline constexpr std::uint16_t kRdbVersion = 10;
inline constexpr std::size_t kDumpFooterBytes = 10;  // RDB version (2) + CRC-64 (8)

// Redis's crc64 (reflected Jones polynomial 0xad93d23594c935a9, initial value 0): crc64("123456789") = 0xe9c6d914c4b8d9ca.
std::uint64_t crc64_jones(std::string_view bytes);

// RDB's length prefix: 6, 14 or 32 bits (big endian), or 64 bits after 0x81.
void put_rdb_length(std::string& out, std::uint64_t length);
// rdbSaveRawString under rdbcompression yes: an integer-encoded string when Redis would write one, LZF when it
// saves Redis's four bytes (over 20 bytes long), else plain.
void put_rdb_string(std::string& out, std::string_view text);
// A binary double (RDB_TYPE_ZSET_2 scores): 8 bytes little endian.
void put_rdb_double(std::string& out, double value);
// Appends the version and the checksum (createDumpPayload's footer).
void append_dump_footer(std::string& payload);
// verifyDumpPayload: room for the footer, a version this server knows, the checksum of all before it.
bool dump_footer_is_valid(std::string_view payload);

// Reads an RDB payload front to back; every read checks what is left.
class RdbReader {
 public:
  explicit RdbReader(std::string_view bytes) : bytes_(bytes) {}
  std::size_t left() const { return bytes_.size() - at_; }
  std::optional<unsigned char> byte();
  std::optional<std::uint64_t> big_endian(int count);
  std::optional<std::int64_t> little_endian_signed(int count);
  std::optional<std::string_view> take(std::uint64_t count);
  // A length; `encoding` set (0-3) when the prefix announces an encoded string instead.
  std::optional<std::uint64_t> length(int& encoding);
  // A length that must not be an encoded string.
  std::optional<std::uint64_t> plain_length();
  std::optional<std::string> string();
  // rdbLoadBinaryDoubleValue (8 bytes) and rdbLoadDoubleValue (RDB_TYPE_ZSET: a length byte, then text).
  std::optional<double> binary_double();
  std::optional<double> text_double();

 private:
  std::string_view bytes_;
  std::size_t at_ = 0;
};

}  // namespace lockcheck::mock
