// The scanner must read a line exactly as the JSON parser does, or not at all (then the parser reads it).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "properties/flat_line.hpp"

namespace lockcheck::properties {
namespace {

using nlohmann::json;

// True when the parser reads the line too, and every field it found the scanner found with the same value.
::testing::AssertionResult same_as_parser(const std::string& line, const FlatLine& flat) {
  json parsed;
  try {
    parsed = json::parse(line);
  } catch (const json::exception& error) {
    return ::testing::AssertionFailure() << "scanned, but the parser refuses it: " << line << " (" << error.what() << ")";
  }
  if (!parsed.is_object()) return ::testing::AssertionFailure() << "scanned a non-object: " << line;
  for (const auto& [name, value] : parsed.items()) {
    const FlatValue* field = flat.find(name);
    if (field == nullptr) return ::testing::AssertionFailure() << "field '" << name << "' not scanned in " << line;
    bool same = false;
    switch (field->kind) {
      case FlatValue::Kind::null: same = value.is_null(); break;
      case FlatValue::Kind::boolean: same = value.is_boolean() && value.get<bool>() == field->boolean; break;
      case FlatValue::Kind::integer:
        same = value.is_number_integer() && !value.is_number_unsigned() && value.get<std::int64_t>() == field->integer;
        break;
      case FlatValue::Kind::non_negative:
        same = value.is_number_unsigned() && value.get<std::uint64_t>() == field->non_negative;
        break;
      case FlatValue::Kind::string: same = value.is_string() && value.get<std::string>() == field->text; break;
    }
    if (!same) return ::testing::AssertionFailure() << "field '" << name << "' differs from the parser's " << value.dump() << " in " << line;
  }
  return ::testing::AssertionSuccess();
}

const std::vector<std::string> kSimulatorLines = {
    R"({"i":0,"t":0,"kind":"meta","schema":1,"scenario":"explore","seed":4294967295,"variant":"token","ttl_ms":1000,"clients":3,"nodes":2,"fencing":false,"end":10000000})",
    R"({"i":1,"t":120,"kind":"op","type":"invoke","process":0,"f":"acquire","key":"lock","local":120})",
    R"({"i":2,"t":180,"kind":"server","node":0,"event":"created","key":"lock","value":"0-1","by":0,"command":"SET","node_time_ms":0,"expire_at_ms":1000})",
    R"({"i":3,"t":200,"kind":"op","type":"ok","process":0,"f":"acquire","key":"lock","token":"0-1","valid_until":990000,"fencing":1})",
    R"({"i":4,"t":300,"kind":"fault","fault":"clock_jump","process":-1,"node":1,"delta_us":-9223372036854775808})",
    R"({"i":5,"t":400,"kind":"resource","process":2,"f":"write","value":7,"version":3,"read_version":2,"accepted":true,"stale":false})",
    R"({"i":6,"t":500,"kind":"end"})",
};

TEST(FlatLine, ReadsTheSimulatorsLinesAsTheParserDoes) {
  for (const std::string& line : kSimulatorLines) {
    FlatLine flat;
    ASSERT_TRUE(flat.scan(line)) << line;
    EXPECT_TRUE(same_as_parser(line, flat));
  }
  FlatLine flat;
  ASSERT_TRUE(flat.scan(kSimulatorLines[4]));
  EXPECT_EQ(flat.find("delta_us")->integer, INT64_MIN);
  EXPECT_EQ(flat.find("missing"), nullptr);
}

TEST(FlatLine, ReadsWhitespaceRepeatsNullAndTheEdgesOfSixtyFourBits) {
  for (const std::string& line : std::vector<std::string>{
           std::string(" { \"i\" : 1 ,\t\"t\":2\r\n, \"kind\" : \"op\" } \r"),
           std::string(R"({"a":1,"a":2})"),
           std::string("{\"a\":null,\"b\":-0,\"c\":18446744073709551615,\"d\":9223372036854775808,\"e\":\"\x7f\"}"),
           std::string("{}"),
       }) {
    FlatLine flat;
    ASSERT_TRUE(flat.scan(line)) << line;
    EXPECT_TRUE(same_as_parser(line, flat));
  }
  FlatLine flat;
  ASSERT_TRUE(flat.scan(R"({"a":1,"a":2})"));
  EXPECT_EQ(flat.find("a")->non_negative, 2u) << "the parser keeps the last of a repeated name";
}

// Names are found by a hash of their first eight bytes and their length and told apart by their first sixteen
// bytes, then the rest: names that share those bytes, names of every length up to past sixteen, names absent,
// and a line with as many fields as a scanned line may have.
TEST(FlatLine, TellsApartNamesThatShareTheirFirstBytes) {
  FlatLine flat;
  ASSERT_TRUE(flat.scan(R"({"valid_until":1,"valid_until_local":2,"valid_un":3,"valid_u":4,"":5,"v":6})"));
  EXPECT_TRUE(same_as_parser(R"({"valid_until":1,"valid_until_local":2,"valid_un":3,"valid_u":4,"":5,"v":6})", flat));
  for (const char* absent : {"valid_until_", "valid_unti", "valid", "valid_until_locaL", "w", "vv"}) {
    EXPECT_EQ(flat.find(absent), nullptr) << absent;
  }
  const std::string long_names =
      R"({"replication_lag_max_us":1,"replication_lag_max_ut":2,"replication_lag_m":3,"replication_lag_":4,"replication_lag":5})";
  ASSERT_TRUE(flat.scan(long_names));
  EXPECT_TRUE(same_as_parser(long_names, flat));
  for (const char* absent : {"replication_lag_max_u", "replication_lag_max_usx", "replication_lag_n", "replication_la"}) {
    EXPECT_EQ(flat.find(absent), nullptr) << absent;
  }
  // The same length and the same first, middle and last bytes: one slot, told apart by the whole name.
  const std::string same_slot = R"({"axmya":1,"aymxa":2,"azmza":3})";
  ASSERT_TRUE(flat.scan(same_slot));
  EXPECT_TRUE(same_as_parser(same_slot, flat));
  EXPECT_EQ(flat.find("awmwa"), nullptr);
  std::string full = "{";
  for (int i = 0; i < 32; ++i) full += (i == 0 ? "" : ",") + fmt::format(R"("field_number_{}":{})", i, i);
  full += "}";
  ASSERT_TRUE(flat.scan(full));
  EXPECT_TRUE(same_as_parser(full, flat));
  EXPECT_EQ(flat.find("field_number_32"), nullptr);
  EXPECT_EQ(flat.find("valid_until"), nullptr) << "a name of the line scanned before";
}

TEST(FlatLine, LeavesToTheParserEveryLineOutsideItsShape) {
  for (const std::string& line : std::vector<std::string>{
           R"({"a":"x\"y"})", R"({"a":"\u0041"})", "{\"a\":\"\xc3\xa9\"}", "{\"a\":\"\x01\"}", R"({"a":1.5})",
           R"({"a":1e3})", R"({"a":1E3})", R"({"a":01})", R"({"a":-})", R"({"a":18446744073709551616})",
           R"({"a":-9223372036854775809})", R"({"a":[1]})", R"({"a":{"b":1}})", R"({"a":1} x)", R"({"a":1,})",
           R"({"a" 1})", R"({"a":1 "b":2})", R"({a:1})", R"({"a":tru})", R"({"a":nul})", R"([1])", "", "{", R"({"a":1)",
           R"({"a":"unterminated})", R"({"a":+1})",
       }) {
    FlatLine flat;
    EXPECT_FALSE(flat.scan(line)) << line;
  }
}

// A string is read eight bytes at a time: a byte that ends it or needs the parser is seen at every offset of a
// long value and a long name.
TEST(FlatLine, SeesEveryByteOfALongStringWhereverItIs) {
  const std::string plain(40, 'a');
  for (std::size_t at = 0; at < plain.size(); ++at) {
    for (const std::string& odd : {std::string("\\\""), std::string("\\n"), std::string("\x01"), std::string("\xc3\xa9"),
                                   std::string("\x7f"), std::string(" ")}) {
      std::string value = plain;
      value.replace(at, 1, odd);
      for (const std::string& line : {"{\"a\":\"" + value + "\"}", "{\"" + value + "\":1}"}) {
        FlatLine flat;
        const bool plain_byte = odd == "\x7f" || odd == " ";  // an escape, a control byte or UTF-8 is the parser's
        ASSERT_EQ(flat.scan(line), plain_byte) << line;
        if (plain_byte) {
          EXPECT_TRUE(same_as_parser(line, flat)) << line;
        }
      }
    }
    const std::string quoted = "{\"a\":\"" + plain.substr(0, at) + "\",\"b\":1}";
    FlatLine flat;
    ASSERT_TRUE(flat.scan(quoted)) << quoted;
    EXPECT_EQ(flat.find("a")->text, plain.substr(0, at));
    EXPECT_EQ(flat.find("b")->non_negative, 1u);
  }
}

// Random edits of real lines: whatever the scanner reads, the parser reads the same.
TEST(FlatLine, AgreesWithTheParserOnEditedLines) {
  const std::string alphabet = "{}[]\":,0123456789-+.eEtruefalsn \\\t\x01\xc3";
  std::uint64_t state = 0x9e3779b97f4a7c15ULL;
  const auto next = [&state](std::uint64_t below) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state % below;
  };
  int scanned = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string line = kSimulatorLines[next(kSimulatorLines.size())];
    const int edits = 1 + static_cast<int>(next(3));
    for (int e = 0; e < edits && !line.empty(); ++e) {
      const std::size_t at = next(line.size());
      const char c = alphabet[next(alphabet.size())];
      switch (next(3)) {
        case 0: line[at] = c; break;
        case 1: line.insert(line.begin() + static_cast<std::ptrdiff_t>(at), c); break;
        default: line.erase(at, 1); break;
      }
    }
    FlatLine flat;
    if (!flat.scan(line)) continue;
    ++scanned;
    ASSERT_TRUE(same_as_parser(line, flat));
  }
  EXPECT_GT(scanned, 1000) << "the edits should leave many lines readable";
}

}  // namespace
}  // namespace lockcheck::properties
