#include "redis/keyspace/packed_encodings.hpp"

#include <limits>

#include "redis/util/numbers.hpp"
#include "redis/util/byte_order.hpp"

namespace lockcheck::mock {
namespace {

constexpr std::size_t kListpackHeaderBytes = 6;  // total bytes (u32) + element count (u16)
constexpr unsigned char kListpackEnd = 0xff;  // a ziplist ends the same way
constexpr std::uint16_t kListpackCountUnknown = 65535;
constexpr std::size_t kZiplistHeaderBytes = 10;  // total bytes (u32) + tail offset (u32) + count (u16)

std::uint64_t read_little_endian(std::string_view bytes, std::size_t at, int count) {
  std::uint64_t value = 0;
  for (int i = 0; i < count; ++i) value |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
  return value;
}

std::int64_t sign_extend(std::uint64_t value, int bits) {
  if (bits < 64 && ((value >> (bits - 1)) & 1)) value |= ~0ULL << bits;
  return static_cast<std::int64_t>(value);
}

// lpEncodeBacklen: the entry's size in 7-bit groups, most significant first, every byte but the first flagged.
std::string backlen(std::size_t entry_bytes) {
  std::string out;
  // Redis's thresholds are one below the powers of two (l < 16383 takes two bytes): kept as written.
  int groups = 5;
  if (entry_bytes <= 127) groups = 1;
  else if (entry_bytes < 16383) groups = 2;
  else if (entry_bytes < 2097151) groups = 3;
  else if (entry_bytes < 268435455) groups = 4;
  for (int i = groups - 1; i >= 0; --i) {
    const auto group = static_cast<unsigned char>((entry_bytes >> (7 * i)) & 127);
    out.push_back(static_cast<char>(i == groups - 1 ? group : group | 128));
  }
  return out;
}

// The encoding bytes and data of one element (lpEncodeGetType + lpEncodeString / the integer encodings).
std::string listpack_entry(std::string_view element) {
  std::string out;
  if (auto value = parse_int64(element)) {
    const std::int64_t v = *value;
    const auto u = static_cast<std::uint64_t>(v);
    if (v >= 0 && v <= 127) {
      out.push_back(static_cast<char>(v));
    } else if (v >= -4096 && v <= 4095) {
      const std::uint64_t bits = u & 0x1fff;
      out.push_back(static_cast<char>(0xc0 | (bits >> 8)));
      out.push_back(static_cast<char>(bits & 0xff));
    } else {
      int width = 8;
      unsigned char tag = 0xf4;
      if (v >= -32768 && v <= 32767) width = 2, tag = 0xf1;
      else if (v >= -8388608 && v <= 8388607) width = 3, tag = 0xf2;
      else if (v >= std::numeric_limits<std::int32_t>::min() && v <= std::numeric_limits<std::int32_t>::max()) width = 4, tag = 0xf3;
      out.push_back(static_cast<char>(tag));
      put_little_endian(out, u, width);
    }
    return out;
  }
  const std::size_t size = element.size();
  if (size < 64) {
    out.push_back(static_cast<char>(0x80 | size));
  } else if (size < 4096) {
    out.push_back(static_cast<char>(0xe0 | (size >> 8)));
    out.push_back(static_cast<char>(size & 0xff));
  } else {
    out.push_back(static_cast<char>(0xf0));
    put_little_endian(out, size, 4);
  }
  out += element;
  return out;
}

// One listpack entry at `at`: its element, and `at` moved past its back length; nullopt when malformed.
std::optional<std::string> next_listpack_entry(std::string_view blob, std::size_t& at) {
  const std::size_t start = at;
  const std::size_t end = blob.size() - 1;  // the terminator
  auto need = [&](std::size_t bytes) { return at + bytes <= end; };
  if (!need(1)) return std::nullopt;
  const auto tag = static_cast<unsigned char>(blob[at]);
  std::string element;
  if ((tag & 0x80) == 0) {
    element = std::to_string(tag);
    at += 1;
  } else if ((tag & 0xc0) == 0x80 || (tag & 0xf0) == 0xe0 || tag == 0xf0) {
    std::size_t header = 1;
    std::size_t size = tag & 0x3f;
    if ((tag & 0xf0) == 0xe0) {
      if (!need(2)) return std::nullopt;
      header = 2, size = ((tag & 0x0fu) << 8) | static_cast<unsigned char>(blob[at + 1]);
    } else if (tag == 0xf0) {
      if (!need(5)) return std::nullopt;
      header = 5, size = static_cast<std::size_t>(read_little_endian(blob, at + 1, 4));
    }
    if (!need(header + size)) return std::nullopt;
    element = std::string(blob.substr(at + header, size));
    at += header + size;
  } else if ((tag & 0xe0) == 0xc0) {
    if (!need(2)) return std::nullopt;
    const std::uint64_t bits = ((tag & 0x1fu) << 8) | static_cast<unsigned char>(blob[at + 1]);
    element = std::to_string(sign_extend(bits, 13));
    at += 2;
  } else if (tag >= 0xf1 && tag <= 0xf4) {
    const int width = tag == 0xf4 ? 8 : tag - 0xf1 + 2;
    if (!need(1 + static_cast<std::size_t>(width))) return std::nullopt;
    element = std::to_string(sign_extend(read_little_endian(blob, at + 1, width), 8 * width));
    at += 1 + static_cast<std::size_t>(width);
  } else {
    return std::nullopt;
  }
  const std::string expected_backlen = backlen(at - start);
  if (!need(expected_backlen.size()) || blob.substr(at, expected_backlen.size()) != expected_backlen) return std::nullopt;
  at += expected_backlen.size();
  return element;
}

// One ziplist entry at `at` (prevlen, encoding, data); nullopt when malformed.
std::optional<std::string> next_ziplist_entry(std::string_view blob, std::size_t& at) {
  const std::size_t end = blob.size() - 1;
  auto need = [&](std::size_t bytes) { return at + bytes <= end; };
  if (!need(1)) return std::nullopt;
  at += static_cast<unsigned char>(blob[at]) < 254 ? 1 : 5;  // the previous entry's length
  if (!need(1)) return std::nullopt;
  const auto tag = static_cast<unsigned char>(blob[at]);
  std::size_t header = 1;
  std::size_t size = 0;
  switch (tag >> 6) {
    case 0: size = tag & 0x3f; break;
    case 1:
      if (!need(2)) return std::nullopt;
      header = 2, size = ((tag & 0x3fu) << 8) | static_cast<unsigned char>(blob[at + 1]);
      break;
    case 2: {
      if (tag != 0x80 || !need(5)) return std::nullopt;
      header = 5;
      for (std::size_t i = 1; i <= 4; ++i) size = (size << 8) | static_cast<unsigned char>(blob[at + i]);
      break;
    }
    default: {
      int width = 0;
      if (tag == 0xc0) width = 2;
      else if (tag == 0xd0) width = 4;
      else if (tag == 0xe0) width = 8;
      else if (tag == 0xf0) width = 3;
      else if (tag == 0xfe) width = 1;
      else if (tag >= 0xf1 && tag <= 0xfd) {
        at += 1;
        return std::to_string((tag & 0x0f) - 1);
      } else {
        return std::nullopt;
      }
      if (!need(1 + static_cast<std::size_t>(width))) return std::nullopt;
      const std::int64_t value = sign_extend(read_little_endian(blob, at + 1, width), 8 * width);
      at += 1 + static_cast<std::size_t>(width);
      return std::to_string(value);
    }
  }
  if (!need(header + size)) return std::nullopt;
  std::string element(blob.substr(at + header, size));
  at += header + size;
  return element;
}

// A listpack or ziplist: total bytes (u32) first, an element count (u16, 65535: unknown) at `count_at`,
// entries up to a 0xff terminator that ends the blob.
using NextEntry = std::optional<std::string> (*)(std::string_view blob, std::size_t& at);
std::optional<std::vector<std::string>> decode_entries(std::string_view blob, std::size_t header_bytes, std::size_t count_at,
                                                       NextEntry next_entry) {
  if (blob.size() < header_bytes + 1 || read_little_endian(blob, 0, 4) != blob.size()) return std::nullopt;
  if (static_cast<unsigned char>(blob.back()) != kListpackEnd) return std::nullopt;
  const auto count = static_cast<std::size_t>(read_little_endian(blob, count_at, 2));
  std::vector<std::string> elements;
  std::size_t at = header_bytes;
  while (at < blob.size() - 1) {  // every entry moves `at` forward
    auto element = next_entry(blob, at);
    if (!element) return std::nullopt;
    elements.push_back(std::move(*element));
  }
  if (count != kListpackCountUnknown && count != elements.size()) return std::nullopt;
  return elements;
}

}  // namespace

std::size_t listpack_entry_bytes(std::string_view element) {
  const std::size_t entry = listpack_entry(element).size();
  return entry + backlen(entry).size();
}

std::string encode_listpack(const std::vector<std::string_view>& elements) {
  std::string body;
  for (std::string_view element : elements) {
    const std::string entry = listpack_entry(element);
    body += entry;
    body += backlen(entry.size());
  }
  std::string out;
  put_little_endian(out, kListpackHeaderBytes + body.size() + 1, 4);
  put_little_endian(out, elements.size() < kListpackCountUnknown ? elements.size() : kListpackCountUnknown, 2);
  out += body;
  out.push_back(static_cast<char>(kListpackEnd));
  return out;
}

std::optional<std::vector<std::string>> decode_listpack(std::string_view blob) {
  return decode_entries(blob, kListpackHeaderBytes, 4, next_listpack_entry);
}

std::optional<std::vector<std::string>> decode_ziplist(std::string_view blob) {
  return decode_entries(blob, kZiplistHeaderBytes, 8, next_ziplist_entry);
}

std::string encode_intset(const std::vector<std::int64_t>& sorted_values) {
  int width = 2;
  for (std::int64_t v : sorted_values) {
    if (v < std::numeric_limits<std::int32_t>::min() || v > std::numeric_limits<std::int32_t>::max()) width = 8;
    else if ((v < -32768 || v > 32767) && width < 4) width = 4;
  }
  std::string out;
  put_little_endian(out, static_cast<std::uint64_t>(width), 4);
  put_little_endian(out, sorted_values.size(), 4);
  for (std::int64_t v : sorted_values) put_little_endian(out, static_cast<std::uint64_t>(v), width);
  return out;
}

std::optional<std::vector<std::int64_t>> decode_intset(std::string_view blob) {
  if (blob.size() < 8) return std::nullopt;
  const auto width = static_cast<int>(read_little_endian(blob, 0, 4));
  if (width != 2 && width != 4 && width != 8) return std::nullopt;
  const std::uint64_t count = read_little_endian(blob, 4, 4);
  if (count == 0 || 8 + count * static_cast<std::uint64_t>(width) != blob.size()) return std::nullopt;
  std::vector<std::int64_t> values;
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::int64_t v = sign_extend(read_little_endian(blob, 8 + i * static_cast<std::size_t>(width), width), 8 * width);
    if (!values.empty() && v <= values.back()) return std::nullopt;  // intsetValidateIntegrity: sorted, no duplicates
    values.push_back(v);
  }
  return values;
}

}  // namespace lockcheck::mock
