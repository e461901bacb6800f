// Bitmaps on strings: GETBIT, SETBIT, BITCOUNT, BITPOS, BITOP — Redis 7.0.15's order of checks and texts.
// Bit 0 is the most significant bit of byte 0, as in Redis.
#include <algorithm>
#include <bit>
#include <optional>
#include <vector>

#include "redis/types/string/string_family.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/util/numbers.hpp"
#include "redis/types/string/string_limits.hpp"
#include "redis/util/text.hpp"
#include "redis/types/typed_lookup.hpp"

namespace lockcheck::mock::cmd {
namespace {

constexpr std::string_view kBitOffsetError = "ERR bit offset is not an integer or out of range";

// getBitOffsetFromArgument: a non-negative integer whose byte lies inside proto-max-bulk-len.
std::optional<std::int64_t> parse_bit_offset(const std::string& text) {
  auto offset = parse_int64(text);
  if (!offset || *offset < 0 || (*offset >> 3) >= kProtoMaxBulkLen) return std::nullopt;
  return offset;
}

bool bit_at(const std::string& text, std::int64_t bit) {
  const auto byte = static_cast<unsigned char>(text[static_cast<std::size_t>(bit >> 3)]);
  return (byte >> (7 - (bit & 7))) & 1;
}

// BITCOUNT's and BITPOS's optional window: start end (BYTE|BIT), as bits of the string.
struct BitWindow {
  std::int64_t first_bit = 0, last_bit = -1;  // inclusive; empty when first > last
};

// Parses args[from] (start) [args[from+1] (end) [args[from+2] (BYTE|BIT)]]; `end_given` tells BITPOS whether a
// missing 0 bit past the end counts as found.
std::optional<BitWindow> parse_bit_window(const Command& args, std::size_t from, std::int64_t length_bytes,
                                          bool& end_given, Reply& error) {
  auto start = parse_int64(args[from]);
  if (!start) return error = err::not_integer(), std::nullopt;
  bool in_bits = false;
  if (args.size() == from + 3) {
    if (iequals(args[from + 2], "bit")) in_bits = true;
    else if (!iequals(args[from + 2], "byte")) return error = err::syntax(), std::nullopt;
  }
  std::int64_t end = in_bits ? length_bytes * 8 + 7 : length_bytes - 1;
  end_given = args.size() > from + 1;
  if (end_given) {
    auto parsed = parse_int64(args[from + 1]);
    if (!parsed) return error = err::not_integer(), std::nullopt;
    end = *parsed;
  }
  const IndexWindow window = clamp_window(*start, end, in_bits ? length_bytes * 8 : length_bytes);
  if (window.empty()) return BitWindow{};
  if (in_bits) return BitWindow{window.start, window.end};
  return BitWindow{window.start * 8, window.end * 8 + 7};
}

std::int64_t count_ones(const std::string& text, const BitWindow& window) {
  std::int64_t count = 0;
  std::int64_t bit = window.first_bit;
  for (; bit <= window.last_bit && (bit & 7) != 0; ++bit) count += bit_at(text, bit);
  for (; bit + 7 <= window.last_bit; bit += 8) {
    count += std::popcount(static_cast<unsigned char>(text[static_cast<std::size_t>(bit >> 3)]));
  }
  for (; bit <= window.last_bit; ++bit) count += bit_at(text, bit);
  return count;
}

}  // namespace

Reply getbit(CommandContext& ctx) {
  auto offset = parse_bit_offset(ctx.args[2]);
  if (!offset) return err::reply(kBitOffsetError);
  bool wrong_type = false;
  const std::string* text = find_typed<std::string>(ctx.keys, ctx.args[1], wrong_type);
  if (wrong_type) return err::wrong_type();
  const bool set = text != nullptr && (*offset >> 3) < static_cast<std::int64_t>(text->size()) && bit_at(*text, *offset);
  return Reply::integer_reply(set ? 1 : 0);
}

// SETBIT key offset 0|1: the string grows with zero bytes to hold the bit; replies the bit's old value.
Reply setbit(CommandContext& ctx) {
  auto offset = parse_bit_offset(ctx.args[2]);
  if (!offset) return err::reply(kBitOffsetError);
  auto on = parse_int64(ctx.args[3]);
  if (!on || (*on & ~std::int64_t{1}) != 0) return Reply::error("ERR bit is not an integer or out of range");
  bool wrong_type = false;
  std::string* text = find_typed<std::string>(ctx.keys, ctx.args[1], wrong_type);
  if (wrong_type) return err::wrong_type();
  const auto byte = static_cast<std::size_t>(*offset >> 3);
  const auto mask = static_cast<unsigned char>(1u << (7 - (*offset & 7)));
  if (text == nullptr) {
    std::string created(byte + 1, '\0');
    if (*on) created[byte] = static_cast<char>(mask);
    // Redis builds the value as a growable string: `raw` whatever its length, also when it unshares an existing one.
    ctx.keys.add_with_encoding(ctx.args[1], Value{std::move(created)}, Encoding::raw);
    return Reply::integer_reply(0);
  }
  ctx.keys.find(ctx.args[1])->encoding = Encoding::raw;
  const bool grew = text->size() <= byte;
  if (grew) text->resize(byte + 1, '\0');
  auto& cell = reinterpret_cast<unsigned char&>((*text)[byte]);
  const bool was_set = (cell & mask) != 0;
  if (*on) cell = static_cast<unsigned char>(cell | mask);
  else cell = static_cast<unsigned char>(cell & ~mask);
  if (grew || was_set != (*on != 0)) ctx.keys.modified(ctx.args[1]);
  return Reply::integer_reply(was_set ? 1 : 0);
}

// BITCOUNT key [start end [BYTE|BIT]]: the key is looked up before the range is parsed.
Reply bitcount(CommandContext& ctx) {
  const Command& args = ctx.args;
  bool wrong_type = false;
  const std::string* text = find_typed<std::string>(ctx.keys, args[1], wrong_type);
  if (wrong_type) return err::wrong_type();
  if (text == nullptr) return Reply::integer_reply(0);
  const auto length = static_cast<std::int64_t>(text->size());
  if (args.size() == 2) return Reply::integer_reply(count_ones(*text, {0, length * 8 - 1}));
  if (args.size() == 3 || args.size() > 5) return err::syntax();
  auto start = parse_int64(args[2]);
  auto end = parse_int64(args[3]);
  if (!start || !end) return err::not_integer();
  if (*start < 0 && *end < 0 && *start > *end) return Reply::integer_reply(0);
  bool end_given = false;
  Reply error;
  auto window = parse_bit_window(args, 2, length, end_given, error);
  if (!window) return error;
  return Reply::integer_reply(count_ones(*text, *window));
}

// BITPOS key bit [start [end [BYTE|BIT]]]: the first bit equal to `bit`; a clear bit past the string's end is
// found (the string reads as zero-padded) unless an end was given.
Reply bitpos(CommandContext& ctx) {
  const Command& args = ctx.args;
  auto bit = parse_int64(args[2]);
  if (!bit) return err::not_integer();
  if (*bit != 0 && *bit != 1) return Reply::error("ERR The bit argument must be 1 or 0.");
  bool wrong_type = false;
  const std::string* text = find_typed<std::string>(ctx.keys, args[1], wrong_type);
  if (wrong_type) return err::wrong_type();
  if (text == nullptr) return Reply::integer_reply(*bit ? -1 : 0);
  const auto length = static_cast<std::int64_t>(text->size());
  if (args.size() > 6) return err::syntax();
  BitWindow window{0, length * 8 - 1};
  bool end_given = false;
  if (args.size() > 3) {
    Reply error;
    auto parsed = parse_bit_window(args, 3, length, end_given, error);
    if (!parsed) return error;
    window = *parsed;
  }
  if (window.first_bit > window.last_bit) return Reply::integer_reply(-1);
  const bool wanted = *bit == 1;
  for (std::int64_t at = window.first_bit; at <= window.last_bit; ++at) {  // bounded by the window
    if ((at & 7) == 0 && at + 7 <= window.last_bit) {
      const auto byte = static_cast<unsigned char>((*text)[static_cast<std::size_t>(at >> 3)]);
      if (byte == (wanted ? 0x00 : 0xff)) {
        at += 7;
        continue;
      }
    }
    if (bit_at(*text, at) == wanted) return Reply::integer_reply(at);
  }
  return Reply::integer_reply(wanted || end_given ? -1 : window.last_bit + 1);
}

// BITOP AND|OR|XOR|NOT destkey key...: missing keys are empty strings, shorter ones zero-padded; an all-empty
// result deletes destkey. Replies the result's length.
Reply bitop(CommandContext& ctx) {
  const Command& args = ctx.args;
  const std::string op = to_lower(args[1]);
  if (op != "and" && op != "or" && op != "xor" && op != "not") return err::syntax();
  if (op == "not" && args.size() != 4) return Reply::error("ERR BITOP NOT must be called with a single source key.");
  std::vector<std::string> sources;
  std::size_t longest = 0;
  for (std::size_t j = 3; j < args.size(); ++j) {
    bool wrong_type = false;
    const std::string* text = find_typed<std::string>(ctx.keys, args[j], wrong_type);
    if (wrong_type) return err::wrong_type();
    sources.push_back(text == nullptr ? std::string() : *text);
    longest = std::max(longest, sources.back().size());
  }
  if (longest == 0) {
    ctx.keys.remove(args[2]);
    return Reply::integer_reply(0);
  }
  std::string result(longest, '\0');
  for (std::size_t i = 0; i < longest; ++i) {
    auto byte_of = [&](const std::string& source) {
      return i < source.size() ? static_cast<unsigned char>(source[i]) : static_cast<unsigned char>(0);
    };
    unsigned char out = byte_of(sources[0]);
    if (op == "not") out = static_cast<unsigned char>(~out);
    for (std::size_t k = 1; k < sources.size(); ++k) {
      const unsigned char in = byte_of(sources[k]);
      if (op == "and") out &= in;
      else if (op == "or") out |= in;
      else out ^= in;
    }
    result[i] = static_cast<char>(out);
  }
  ctx.keys.put(args[2], Value{std::move(result)}, false).encoding = Encoding::raw;  // a growable string, as SETBIT
  return Reply::integer_reply(static_cast<std::int64_t>(longest));
}

}  // namespace lockcheck::mock::cmd
