// FUNCTION DUMP / RESTORE: the payload's format (redis-server 7.0.15 reads the mock's dumps and the mock reads
// Redis's LZF-compressed ones), the three policies, collisions and bad payloads with 7.0.15's texts.
#include <gtest/gtest.h>

#include "mock_test_support.hpp"
#include "redis/rdb/function_dump.hpp"

namespace lockcheck::mock::testing {
namespace {

#define EXPECT_REPLY(actual, expected) EXPECT_EQ(to_string(actual), to_string(expected)) << "reply kinds must match too"

const std::string kLibTest = "#!lua name=test\nredis.register_function('test', function() return 'hello' end)";
const std::string kLibTest1 = "#!lua name=test\nredis.register_function('test', function() return 'hello1' end)";

class FunctionDump : public ::testing::Test, public MockFixture {};

TEST(FunctionDumpFormat, Crc64IsRedisJones) {
  EXPECT_EQ(crc64_jones("123456789"), 0xe9c6d914c4b8d9caULL);  // the check value in Redis's crc64.c tests
  const std::string empty = dump_function_codes({});
  EXPECT_EQ(empty.size(), 10u);  // version 10 and the checksum: what redis-server 7.0.15 dumps with no library
  EXPECT_EQ(empty.substr(0, 2), std::string("\x0a\x00", 2));
}

TEST_F(FunctionDump, RestoresAPayloadThatRedisCompressed) {
  // FUNCTION DUMP of this library from redis-server 7.0.15: its code is an LZF-compressed RDB string.
  const std::string from_redis(
      "\xf5\xc3\x40\x50\x40\x68\x1f\x23\x21\x6c\x75\x61\x20\x6e\x61\x6d\x65\x3d\x7a\x69\x70\x70\x65\x64\x0a\x72\x65"
      "\x64\x69\x73\x2e\x72\x65\x67\x69\x73\x74\x65\x72\x0a\x5f\x66\x75\x6e\x63\x74\x69\x6f\x6e\x28\x27\x80\x1f\x02"
      "\x27\x2c\x20\xe0\x00\x12\x08\x29\x20\x72\x65\x74\x75\x72\x6e\x20\xa0\x1b\x00\x20\x80\x22\xe0\x05\x06\x05\x27"
      "\x20\x65\x6e\x64\x29\x0a\x00\xd4\xe5\x8f\x0d\x0e\x7e\xa5\x4c",
      96);
  EXPECT_REPLY(run({"function", "restore", from_redis}), S("OK"));
  EXPECT_REPLY(run({"fcall", "zipped", "0"}), B("zipped zipped zipped zipped"));
}

TEST_F(FunctionDump, DumpAndRestoreWithEachPolicy) {
  EXPECT_REPLY(run({"function", "load", kLibTest}), B("test"));
  const std::string dump = run({"function", "dump"}).text;
  EXPECT_REPLY(run({"function", "delete", "test"}), S("OK"));
  EXPECT_REPLY(run({"function", "restore", dump}), S("OK"));
  EXPECT_REPLY(run({"fcall", "test", "0"}), B("hello"));
  EXPECT_REPLY(run({"function", "restore", dump, "APPEND"}), E("ERR Library test already exists"));
  EXPECT_REPLY(run({"function", "load", "REPLACE", kLibTest1}), B("test"));
  EXPECT_REPLY(run({"function", "restore", dump, "replace"}), S("OK"));
  EXPECT_REPLY(run({"fcall", "test", "0"}), B("hello"));
  EXPECT_REPLY(run({"function", "load", "#!lua name=other\nredis.register_function('other', function() return 2 end)"}),
               B("other"));
  EXPECT_REPLY(run({"function", "restore", dump, "FLUSH"}), S("OK"));
  EXPECT_REPLY(run({"fcall", "other", "0"}), E("ERR Function not found"));
  EXPECT_REPLY(run({"function", "restore", dump, "nope"}),
               E("ERR Wrong restore policy given, value should be either FLUSH, APPEND or REPLACE."));
  EXPECT_REPLY(run({"function", "restore", "a", "b", "c"}),
               E("ERR unknown subcommand or wrong number of arguments for 'restore'. Try FUNCTION HELP."));
}

TEST_F(FunctionDump, CollisionsAndBadPayloadsLeaveTheLibrariesAlone) {
  const std::string payload =
      dump_function_codes({"#!lua name=lib1\nredis.register_function('f1', function() return 1 end)\n"
                           "redis.register_function('f3', function() return 3 end)"});
  EXPECT_REPLY(run({"function", "load", "#!lua name=lib2\nredis.register_function('f3', function() return 4 end)"}),
               B("lib2"));
  EXPECT_REPLY(run({"function", "restore", payload}), E("ERR Function f3 already exists"));
  EXPECT_REPLY(run({"function", "restore", payload, "REPLACE"}), E("ERR Function f3 already exists"));
  EXPECT_REPLY(run({"function", "restore", "bad_payload"}), E("ERR DUMP payload version or checksum are wrong"));
  std::string flipped = payload;
  flipped[5] ^= 1;
  EXPECT_REPLY(run({"function", "restore", flipped}), E("ERR DUMP payload version or checksum are wrong"));
  EXPECT_REPLY(run({"function", "restore", dump_function_codes({"#!lua name=broken\nlocal x = ("})}),
               E("ERR Error compiling function: user_function:2: unexpected symbol near '<eof>'"));
  EXPECT_REPLY(run({"fcall", "f3", "0"}), I(4));
  EXPECT_REPLY(run({"fcall", "f1", "0"}), E("ERR Function not found"));
}

}  // namespace
}  // namespace lockcheck::mock::testing
