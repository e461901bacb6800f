#include "function_dump.hpp"

#include <array>
#include <optional>

namespace lockcheck::mock {
namespace {

constexpr unsigned char kOpcodeFunction2 = 245;  // the library's whole code
constexpr unsigned char kOpcodeFunction = 246;   // 7.0 release candidates: name, engine, description, body
constexpr std::size_t kFooterBytes = 10;         // RDB version (2) + CRC-64 (8)

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

void put_little_endian(std::string& out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

// RDB's length prefix: 6, 14 or 32 bits (big endian), or 64 bits after 0x81.
void put_rdb_length(std::string& out, std::uint64_t length) {
  if (length < (1u << 6)) {
    out.push_back(static_cast<char>(length));
  } else if (length < (1u << 14)) {
    out.push_back(static_cast<char>(0x40 | (length >> 8)));
    out.push_back(static_cast<char>(length & 0xff));
  } else if (length <= 0xffffffffULL) {
    out.push_back(static_cast<char>(0x80));
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((length >> shift) & 0xff));
  } else {
    out.push_back(static_cast<char>(0x81));
    for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<char>((length >> shift) & 0xff));
  }
}

// Reads an RDB payload front to back; every read checks what is left.
class RdbReader {
 public:
  explicit RdbReader(std::string_view bytes) : bytes_(bytes) {}
  std::size_t left() const { return bytes_.size() - at_; }
  std::optional<unsigned char> byte() {
    if (at_ >= bytes_.size()) return std::nullopt;
    return static_cast<unsigned char>(bytes_[at_++]);
  }
  std::optional<std::uint64_t> big_endian(int count) {
    std::uint64_t value = 0;
    for (int i = 0; i < count; ++i) {
      auto next = byte();
      if (!next) return std::nullopt;
      value = (value << 8) | *next;
    }
    return value;
  }
  std::optional<std::int64_t> little_endian_signed(int count) {
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
  std::optional<std::string_view> take(std::uint64_t count) {
    if (count > left()) return std::nullopt;
    std::string_view out = bytes_.substr(at_, static_cast<std::size_t>(count));
    at_ += static_cast<std::size_t>(count);
    return out;
  }

  // A length; `encoding` set (0-3) when the prefix announces an encoded string instead.
  std::optional<std::uint64_t> length(int& encoding) {
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

  std::optional<std::string> string() {
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
    int nested = -1;
    auto compressed_size = length(nested);
    if (!compressed_size || nested >= 0) return std::nullopt;
    auto plain_size = length(nested);
    if (!plain_size || nested >= 0) return std::nullopt;
    auto compressed = take(*compressed_size);
    if (!compressed) return std::nullopt;
    return lzf_decompress(*compressed, *plain_size);
  }

 private:
  // liblzf's format: a control byte < 32 copies that many + 1 literal bytes; otherwise a back reference of
  // (control >> 5) + 2 bytes (7: plus the next byte) from ((control & 31) << 8) + next byte + 1 bytes back.
  static std::optional<std::string> lzf_decompress(std::string_view in, std::uint64_t plain_size) {
    if (plain_size > (std::uint64_t{1} << 32)) return std::nullopt;
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

  std::string_view bytes_;
  std::size_t at_ = 0;
};

// rdbFunctionLoad for the 7.0-rc opcode: the code rebuilt as "#!<engine> name=<name>\n<body>".
std::optional<std::string> read_old_function(RdbReader& reader, std::string& error) {
  auto name = reader.string();
  if (!name) return error = "Failed loading library name", std::nullopt;
  auto engine = reader.string();
  if (!engine) return error = "Failed loading engine name", std::nullopt;
  int encoding = -1;
  auto has_description = reader.length(encoding);
  if (!has_description || encoding >= 0) return error = "Failed loading library description indicator", std::nullopt;
  if (*has_description != 0 && !reader.string()) return error = "Failed loading library description", std::nullopt;
  auto body = reader.string();
  if (!body) return error = "Failed loading library blob", std::nullopt;
  return "#!" + *engine + " name=" + *name + "\n" + *body;
}

}  // namespace

std::uint64_t crc64_jones(std::string_view bytes) {
  std::uint64_t crc = 0;
  for (char c : bytes) crc = kCrc64Table[(crc ^ static_cast<unsigned char>(c)) & 0xff] ^ (crc >> 8);
  return crc;
}

std::string dump_function_codes(const std::vector<std::string>& codes) {
  std::string out;
  for (const std::string& code : codes) {
    out.push_back(static_cast<char>(kOpcodeFunction2));
    put_rdb_length(out, code.size());
    out += code;
  }
  put_little_endian(out, kRdbVersion, 2);
  put_little_endian(out, crc64_jones(out), 8);
  return out;
}

std::variant<std::vector<std::string>, ReadPayloadError> read_function_payload(std::string_view payload) {
  // verifyDumpPayload: room for the footer, a version this server knows, the checksum of all before it.
  if (payload.size() < kFooterBytes) return ReadPayloadError{"", true};
  const std::string_view footer = payload.substr(payload.size() - kFooterBytes);
  const unsigned version = static_cast<unsigned char>(footer[0]) | (static_cast<unsigned char>(footer[1]) << 8);
  if (version > kRdbVersion) return ReadPayloadError{"", true};
  std::uint64_t stored_crc = 0;
  for (int i = 0; i < 8; ++i) stored_crc |= static_cast<std::uint64_t>(static_cast<unsigned char>(footer[2 + i])) << (8 * i);
  if (crc64_jones(payload.substr(0, payload.size() - 8)) != stored_crc) return ReadPayloadError{"", true};

  std::vector<std::string> codes;
  RdbReader reader(payload);
  while (reader.left() > kFooterBytes) {  // every library read consumes bytes
    auto type = reader.byte();
    if (!type) return ReadPayloadError{"can not read data type"};
    if (*type != kOpcodeFunction2 && *type != kOpcodeFunction) return ReadPayloadError{"given type is not a function"};
    std::string error;
    std::optional<std::string> code;
    if (*type == kOpcodeFunction) {
      code = read_old_function(reader, error);
    } else {
      code = reader.string();
      if (!code) error = "Failed loading library payload";
    }
    if (!code) return ReadPayloadError{error};
    codes.push_back(std::move(*code));
  }
  return codes;
}

}  // namespace lockcheck::mock
