#include "redis/rdb/rdb_io.hpp"

#include <array>
#include <bit>
#include <cstdlib>
#include <limits>

#include "redis/rdb/lzf_compress.hpp"
#include "redis/util/byte_order.hpp"
#include "redis/util/numbers.hpp"

namespace lockcheck::mock {
namespace {

constexpr std::array<std::uint64_t, 256> crc64_table() {
  constexpr std::uint64_t kReflectedPoly = 0x95ac9329ac4bc9b5ULL;  // 0xad93d23594c935a9 bit-reversed
  std::array<std::uint64_t, 256> table{};
  for (std::uint64_t byte = 0; byte < 256; ++byte) {
    std::uint64_t crc = byte;
    for (int bit = 0; bit < 8; ++bit) crc = (crc & 1) ? (crc >> 1) ^ kReflectedPoly : crc >> 1;
    table[byte] = crc;
  }
  return table;
}
constexpr std::array<std::uint64_t, 256> kCrc64Table = crc64_table();

constexpr unsigned char kEncInt8 = 0xc0;  // RDB_ENCVAL prefix (11 in the top bits) + RDB_ENC_INT8
constexpr unsigned char kEncInt16 = 0xc1;
constexpr unsigned char kEncInt32 = 0xc2;
constexpr unsigned char kEncLzf = 0xc3;
constexpr std::size_t kLzfMinBytes = 21;  // rdbSaveRawString: "under 20 bytes it's unable to compress"

// liblzf's format: a control byte < 32 copies that many + 1 literal bytes; otherwise a back reference of
// (control >> 5) + 2 bytes (7: plus the next byte) from ((control & 31) << 8) + next byte + 1 bytes back.
std::optional<std::string> lzf_decompress(std::string_view in, std::uint64_t plain_size) {
  // One back reference (2 or 3 input bytes) writes at most 264 bytes: a larger claimed size is corrupt, and
  // must not be allocated up front.
  if (plain_size > (std::uint64_t{1} << 32) || plain_size > in.size() * std::uint64_t{133}) return std::nullopt;
  std::string out;
  out.reserve(static_cast<std::size_t>(plain_size));
  std::size_t at = 0;
  while (at < in.size()) {  // each round consumes at least one input byte
    const auto control = static_cast<unsigned char>(in[at++]);
    if (control < 32) {
      const std::size_t run = control + 1u;
      if (at + run > in.size() || out.size() + run > plain_size) return std::nullopt;
      out.append(in.substr(at, run));
      at += run;
      continue;
    }
    std::size_t run = control >> 5;
    if (run == 7) {
      if (at >= in.size()) return std::nullopt;
      run += static_cast<unsigned char>(in[at++]);
    }
    if (at >= in.size()) return std::nullopt;
    const std::size_t back = ((control & 0x1fu) << 8) + static_cast<unsigned char>(in[at++]) + 1;
    run += 2;
    if (back > out.size() || out.size() + run > plain_size) return std::nullopt;
    const std::size_t from = out.size() - back;
    for (std::size_t i = 0; i < run; ++i) out.push_back(out[from + i]);  // may overlap what it writes
  }
  if (out.size() != plain_size) return std::nullopt;
  return out;
}

}  // namespace

std::uint64_t crc64_jones(std::string_view bytes) {
  std::uint64_t crc = 0;
  for (char c : bytes) crc = kCrc64Table[(crc ^ static_cast<unsigned char>(c)) & 0xff] ^ (crc >> 8);
  return crc;
}

void put_rdb_length(std::string& out, std::uint64_t length) {
  if (length < (1u << 6)) {
    out.push_back(static_cast<char>(length));
  } else if (length < (1u << 14)) {
    out.push_back(static_cast<char>(0x40 | (length >> 8)));
    out.push_back(static_cast<char>(length & 0xff));
  } else if (length <= 0xffffffffULL) {
    out.push_back(static_cast<char>(0x80));
    put_big_endian(out, length, 4);
  } else {
    out.push_back(static_cast<char>(0x81));
    put_big_endian(out, length, 8);
  }
}

void put_rdb_string(std::string& out, std::string_view text) {
  // rdbTryIntegerEncoding: only a canonical integer of at most 11 characters that fits 32 bits.
  if (text.size() <= 11) {
    if (auto value = parse_int64(text)) {
      if (*value >= -128 && *value <= 127) {
        out.push_back(static_cast<char>(kEncInt8));
        put_little_endian(out, static_cast<std::uint64_t>(*value), 1);
        return;
      }
      if (*value >= -32768 && *value <= 32767) {
        out.push_back(static_cast<char>(kEncInt16));
        put_little_endian(out, static_cast<std::uint64_t>(*value), 2);
        return;
      }
      if (*value >= std::numeric_limits<std::int32_t>::min() && *value <= std::numeric_limits<std::int32_t>::max()) {
        out.push_back(static_cast<char>(kEncInt32));
        put_little_endian(out, static_cast<std::uint64_t>(*value), 4);
        return;
      }
    }
  }
  if (text.size() >= kLzfMinBytes) {
    if (auto compressed = lzf_compress(text)) {  // rdbcompression yes, Redis's default
      out.push_back(static_cast<char>(kEncLzf));
      put_rdb_length(out, compressed->size());
      put_rdb_length(out, text.size());
      out += *compressed;
      return;
    }
  }
  put_rdb_length(out, text.size());
  out += text;
}

void put_rdb_double(std::string& out, double value) { put_little_endian(out, std::bit_cast<std::uint64_t>(value), 8); }

void append_dump_footer(std::string& payload) {
  put_little_endian(payload, kRdbVersion, 2);
  put_little_endian(payload, crc64_jones(payload), 8);
}

bool dump_footer_is_valid(std::string_view payload) {
  if (payload.size() < kDumpFooterBytes) return false;
  const std::string_view footer = payload.substr(payload.size() - kDumpFooterBytes);
  const unsigned version = static_cast<unsigned char>(footer[0]) | (static_cast<unsigned char>(footer[1]) << 8);
  if (version > kRdbVersion) return false;
  std::uint64_t stored_crc = 0;
  for (int i = 0; i < 8; ++i) stored_crc |= static_cast<std::uint64_t>(static_cast<unsigned char>(footer[2 + i])) << (8 * i);
  return crc64_jones(payload.substr(0, payload.size() - 8)) == stored_crc;
}

std::optional<unsigned char> RdbReader::byte() {
  if (at_ >= bytes_.size()) return std::nullopt;
  return static_cast<unsigned char>(bytes_[at_++]);
}

std::optional<std::uint64_t> RdbReader::big_endian(int count) {
  std::uint64_t value = 0;
  for (int i = 0; i < count; ++i) {
    auto next = byte();
    if (!next) return std::nullopt;
    value = (value << 8) | *next;
  }
  return value;
}

std::optional<std::int64_t> RdbReader::little_endian_signed(int count) {
  std::uint64_t value = 0;
  for (int i = 0; i < count; ++i) {
    auto next = byte();
    if (!next) return std::nullopt;
    value |= static_cast<std::uint64_t>(*next) << (8 * i);
  }
  const int bits = count * 8;
  if (bits < 64 && (value >> (bits - 1)) & 1) value |= ~0ULL << bits;  // sign-extend
  return static_cast<std::int64_t>(value);
}

std::optional<std::string_view> RdbReader::take(std::uint64_t count) {
  if (count > left()) return std::nullopt;
  std::string_view out = bytes_.substr(at_, static_cast<std::size_t>(count));
  at_ += static_cast<std::size_t>(count);
  return out;
}

std::optional<std::uint64_t> RdbReader::length(int& encoding) {
  encoding = -1;
  auto first = byte();
  if (!first) return std::nullopt;
  switch (*first >> 6) {
    case 0: return *first & 0x3f;
    case 1: {
      auto second = byte();
      if (!second) return std::nullopt;
      return (static_cast<std::uint64_t>(*first & 0x3f) << 8) | *second;
    }
    case 2:
      if (*first == 0x80) return big_endian(4);
      if (*first == 0x81) return big_endian(8);
      return std::nullopt;
    default: encoding = *first & 0x3f; return 0;
  }
}

std::optional<std::uint64_t> RdbReader::plain_length() {
  int encoding = -1;
  auto size = length(encoding);
  if (!size || encoding >= 0) return std::nullopt;
  return size;
}

std::optional<std::string> RdbReader::string() {
  int encoding = -1;
  auto size = length(encoding);
  if (!size) return std::nullopt;
  if (encoding < 0) {
    auto raw = take(*size);
    if (!raw) return std::nullopt;
    return std::string(*raw);
  }
  if (encoding <= 2) {  // int8, int16, int32 stored as the decimal string they print as
    auto value = little_endian_signed(1 << encoding);
    if (!value) return std::nullopt;
    return std::to_string(*value);
  }
  if (encoding != 3) return std::nullopt;
  auto compressed_size = plain_length();
  if (!compressed_size) return std::nullopt;
  auto plain_size = plain_length();
  if (!plain_size) return std::nullopt;
  auto compressed = take(*compressed_size);
  if (!compressed) return std::nullopt;
  return lzf_decompress(*compressed, *plain_size);
}

std::optional<double> RdbReader::binary_double() {
  auto raw = little_endian_signed(8);
  if (!raw) return std::nullopt;
  return std::bit_cast<double>(*raw);
}

std::optional<double> RdbReader::text_double() {
  auto size = byte();
  if (!size) return std::nullopt;
  if (*size == 255) return -std::numeric_limits<double>::infinity();
  if (*size == 254) return std::numeric_limits<double>::infinity();
  if (*size == 253) return std::numeric_limits<double>::quiet_NaN();
  auto text = take(*size);
  if (!text) return std::nullopt;
  const std::string owned(*text);
  char* end = nullptr;
  const double value = std::strtod(owned.c_str(), &end);  // Redis: sscanf("%lg"), which stops where strtod does
  if (end == owned.c_str()) return std::nullopt;
  return value;
}

}  // namespace lockcheck::mock
