// GETRANGE/SUBSTR/SETRANGE, GETBIT/SETBIT/BITCOUNT/BITPOS/BITOP and LCS: replies and error texts as
// redis-server 7.0.15 gave them to the same commands (checked with redis-cli; the differential test compares
// random sequences of them).
#include <gtest/gtest.h>

#include "mock_test_support.hpp"

namespace lockcheck::mock::testing {
namespace {

#define EXPECT_REPLY(actual, expected) EXPECT_EQ(to_string(actual), to_string(expected)) << "reply kinds must match too"

const Reply kWrongType = E("WRONGTYPE Operation against a key holding the wrong kind of value");
const Reply kNotInteger = E("ERR value is not an integer or out of range");
const Reply kBadBitOffset = E("ERR bit offset is not an integer or out of range");

class StringBits : public ::testing::Test, public MockFixture {};

TEST_F(StringBits, GetrangeAndSubstrClampLikeRedis) {
  EXPECT_REPLY(run({"getrange", "k", "0", "-1"}), B(""));
  EXPECT_REPLY(run({"set", "k", "Hello World"}), S("OK"));
  EXPECT_REPLY(run({"getrange", "k", "0", "3"}), B("Hell"));
  EXPECT_REPLY(run({"getrange", "k", "-3", "-1"}), B("rld"));
  EXPECT_REPLY(run({"getrange", "k", "-1", "-5"}), B(""));
  EXPECT_REPLY(run({"getrange", "k", "5", "3"}), B(""));
  EXPECT_REPLY(run({"getrange", "k", "0", "4294967297"}), B("Hello World"));
  EXPECT_REPLY(run({"getrange", "k", "-100", "1"}), B("He"));
  EXPECT_REPLY(run({"substr", "k", "6", "-1"}), B("World"));
  EXPECT_REPLY(run({"getrange", "k", "x", "1"}), kNotInteger);
  EXPECT_REPLY(run({"lpush", "l", "a"}), I(1));
  EXPECT_REPLY(run({"getrange", "l", "0", "1"}), kWrongType);
  EXPECT_REPLY(run({"getrange", "l", "0", "x"}), kNotInteger);  // the range is parsed before the key is read
}

TEST_F(StringBits, SetrangePadsWithZerosAndStopsAtProtoMaxBulkLen) {
  EXPECT_REPLY(run({"setrange", "k", "5", "ab"}), I(7));
  EXPECT_REPLY(run({"get", "k"}), B(std::string(5, '\0') + "ab"));
  EXPECT_REPLY(run({"setrange", "k", "1", "xyzxyzxyz"}), I(10));
  EXPECT_REPLY(run({"get", "k"}), B(std::string(1, '\0') + "xyzxyzxyz"));
  EXPECT_REPLY(run({"setrange", "k", "0", ""}), I(10));
  EXPECT_REPLY(run({"setrange", "none", "3", ""}), I(0));
  EXPECT_REPLY(run({"exists", "none"}), I(0));  // an empty value does not create the key
  EXPECT_REPLY(run({"setrange", "k", "-1", "a"}), E("ERR offset is out of range"));
  EXPECT_REPLY(run({"setrange", "k", "x", "a"}), kNotInteger);
  const Reply too_long = E("ERR string exceeds maximum allowed size (proto-max-bulk-len)");
  EXPECT_REPLY(run({"setrange", "k", "536870908", "world"}), too_long);
  EXPECT_REPLY(run({"setrange", "k", "9223372036854775807", "A"}), too_long);
  EXPECT_REPLY(run({"setrange", "new", "536870912", "A"}), too_long);
  EXPECT_REPLY(run({"lpush", "l", "a"}), I(1));
  EXPECT_REPLY(run({"setrange", "l", "0", "a"}), kWrongType);
}

TEST_F(StringBits, SetbitAndGetbitAddressBitsFromTheMostSignificant) {
  EXPECT_REPLY(run({"setbit", "k", "7", "1"}), I(0));
  EXPECT_REPLY(run({"get", "k"}), B("\x01"));
  EXPECT_REPLY(run({"setbit", "k", "7", "1"}), I(1));
  EXPECT_REPLY(run({"setbit", "k", "17", "1"}), I(0));
  EXPECT_REPLY(run({"get", "k"}), B(std::string("\x01\x00\x40", 3)));
  EXPECT_REPLY(run({"setbit", "k", "7", "0"}), I(1));
  EXPECT_REPLY(run({"getbit", "k", "17"}), I(1));
  EXPECT_REPLY(run({"getbit", "k", "7"}), I(0));
  EXPECT_REPLY(run({"getbit", "k", "1000"}), I(0));
  EXPECT_REPLY(run({"getbit", "none", "0"}), I(0));
  EXPECT_REPLY(run({"setbit", "k", "4294967296", "1"}), kBadBitOffset);  // byte 512 MB: past proto-max-bulk-len
  EXPECT_REPLY(run({"setbit", "k", "-1", "1"}), kBadBitOffset);
  EXPECT_REPLY(run({"getbit", "k", "x"}), kBadBitOffset);
  EXPECT_REPLY(run({"setbit", "k", "0", "2"}), E("ERR bit is not an integer or out of range"));
  EXPECT_REPLY(run({"setbit", "k", "0", "-1"}), E("ERR bit is not an integer or out of range"));
  EXPECT_REPLY(run({"lpush", "l", "a"}), I(1));
  EXPECT_REPLY(run({"setbit", "l", "0", "1"}), kWrongType);
  EXPECT_REPLY(run({"getbit", "l", "0"}), kWrongType);
}

TEST_F(StringBits, BitcountInBytesAndBits) {
  EXPECT_REPLY(run({"bitcount", "none", "x"}), I(0));  // the key is read before the arguments
  EXPECT_REPLY(run({"set", "k", "foobar"}), S("OK"));
  EXPECT_REPLY(run({"bitcount", "k"}), I(26));
  EXPECT_REPLY(run({"bitcount", "k", "0", "0"}), I(4));
  EXPECT_REPLY(run({"bitcount", "k", "1", "1"}), I(6));
  EXPECT_REPLY(run({"bitcount", "k", "1", "1", "BIT"}), I(1));
  EXPECT_REPLY(run({"bitcount", "k", "5", "30", "bit"}), I(17));
  EXPECT_REPLY(run({"bitcount", "k", "-1", "-2"}), I(0));
  EXPECT_REPLY(run({"bitcount", "k", "0"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"bitcount", "k", "0", "1", "bits"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"bitcount", "k", "a", "1"}), kNotInteger);
}

TEST_F(StringBits, BitposFindsTheFirstBitAndReadsPastTheEndAsZeros) {
  EXPECT_REPLY(run({"bitpos", "none", "0"}), I(0));
  EXPECT_REPLY(run({"bitpos", "none", "1"}), I(-1));
  EXPECT_REPLY(run({"bitpos", "none", "2"}), E("ERR The bit argument must be 1 or 0."));
  EXPECT_REPLY(run({"set", "k", "\xff\xf0"}), S("OK"));
  EXPECT_REPLY(run({"bitpos", "k", "0"}), I(12));
  EXPECT_REPLY(run({"bitpos", "k", "1", "1"}), I(8));
  EXPECT_REPLY(run({"set", "k", "\xff\xff"}), S("OK"));
  EXPECT_REPLY(run({"bitpos", "k", "0"}), I(16));      // no end given: the string reads on as zeros
  EXPECT_REPLY(run({"bitpos", "k", "0", "1"}), I(16));
  EXPECT_REPLY(run({"bitpos", "k", "0", "0", "-1"}), I(-1));
  EXPECT_REPLY(run({"bitpos", "k", "0", "3", "-1", "BIT"}), I(-1));
  EXPECT_REPLY(run({"bitpos", "k", "0", "3", "BIT"}), kNotInteger);  // four arguments: BIT is read as the end
  EXPECT_REPLY(run({"set", "k", std::string("\x00\x01", 2)}), S("OK"));
  EXPECT_REPLY(run({"bitpos", "k", "1", "7", "15", "bit"}), I(15));
  EXPECT_REPLY(run({"bitpos", "k", "1", "0", "0"}), I(-1));
  EXPECT_REPLY(run({"bitpos", "k", "1", "0", "1", "nope"}), E("ERR syntax error"));
}

TEST_F(StringBits, BitopCombinesZeroPaddedStrings) {
  EXPECT_REPLY(run({"set", "a", "\xf0\x0f"}), S("OK"));
  EXPECT_REPLY(run({"set", "b", "\xff"}), S("OK"));
  EXPECT_REPLY(run({"bitop", "and", "d", "a", "b"}), I(2));
  EXPECT_REPLY(run({"get", "d"}), B(std::string("\xf0\x00", 2)));
  EXPECT_REPLY(run({"bitop", "OR", "d", "a", "b", "none"}), I(2));
  EXPECT_REPLY(run({"get", "d"}), B("\xff\x0f"));
  EXPECT_REPLY(run({"bitop", "xor", "d", "a", "b"}), I(2));
  EXPECT_REPLY(run({"get", "d"}), B("\x0f\x0f"));
  EXPECT_REPLY(run({"bitop", "not", "d", "a"}), I(2));
  EXPECT_REPLY(run({"get", "d"}), B("\x0f\xf0"));
  EXPECT_REPLY(run({"bitop", "or", "d", "none", "none2"}), I(0));
  EXPECT_REPLY(run({"exists", "d"}), I(0));  // an empty result deletes the destination
  EXPECT_REPLY(run({"bitop", "not", "d", "a", "b"}), E("ERR BITOP NOT must be called with a single source key."));
  EXPECT_REPLY(run({"bitop", "nand", "d", "a"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"lpush", "l", "a"}), I(1));
  EXPECT_REPLY(run({"bitop", "and", "d", "a", "l"}), kWrongType);
}

TEST_F(StringBits, LcsStringLengthAndMatchRanges) {
  EXPECT_REPLY(run({"set", "virus1", "ohmytext"}), S("OK"));
  EXPECT_REPLY(run({"set", "virus2", "mynewtext"}), S("OK"));
  EXPECT_REPLY(run({"lcs", "virus1", "virus2"}), B("mytext"));
  EXPECT_REPLY(run({"lcs", "virus1", "virus2", "LEN"}), I(6));
  auto range = [](std::int64_t from, std::int64_t to) { return A({I(from), I(to)}); };
  EXPECT_REPLY(run({"lcs", "virus1", "virus2", "IDX"}),
               A({B("matches"), A({A({range(4, 7), range(5, 8)}), A({range(2, 3), range(0, 1)})}), B("len"), I(6)}));
  EXPECT_REPLY(run({"lcs", "virus1", "virus2", "IDX", "WITHMATCHLEN", "MINMATCHLEN", "3"}),
               A({B("matches"), A({A({range(4, 7), range(5, 8), I(4)})}), B("len"), I(6)}));
  EXPECT_REPLY(run({"lcs", "virus1", "none"}), B(""));
  EXPECT_REPLY(run({"lcs", "virus1", "virus2", "LEN", "IDX"}),
               E("ERR If you want both the length and indexes, please just use IDX."));
  EXPECT_REPLY(run({"lcs", "virus1", "virus2", "MINMATCHLEN"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"lcs", "virus1", "virus2", "MINMATCHLEN", "x"}), kNotInteger);
  EXPECT_REPLY(run({"lpush", "l", "a"}), I(1));
  EXPECT_REPLY(run({"lcs", "virus1", "l", "nope"}), E("ERR The specified keys must contain string values"));
}

}  // namespace
}  // namespace lockcheck::mock::testing
