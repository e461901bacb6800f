// DUMP and RESTORE of streams: the mock writes redis-server 7.0.15's bytes (RDB_TYPE_STREAM_LISTPACKS_2, nodes
// as Redis fills and flags them, LZF as Redis compresses), restores Redis's payloads to the same stream, and
// derives entries-added, max-deleted-entry-id and entries-read for 6.2's type as 7.0.15 does.
#include <gtest/gtest.h>

#include "mock_test_support.hpp"
#include "redis/keyspace/packed_encodings.hpp"
#include "redis/rdb/rdb_io.hpp"
#include "redis/util/byte_order.hpp"

namespace lockcheck::mock::testing {
namespace {

#define EXPECT_REPLY(actual, expected) EXPECT_EQ(to_string(actual), to_string(expected)) << "reply kinds must match too"

class DumpStream : public ::testing::Test, public MockFixture {
 protected:
  std::string dump(const std::string& key) { return run({"dump", key}).text; }
  // The value after `name` in a flat name/value array (XINFO's RESP2 maps).
  static Reply field(const Reply& map, const std::string& name) {
    for (std::size_t i = 0; i + 1 < map.elements.size(); i += 2) {
      if (map.elements[i].text == name) return map.elements[i + 1];
    }
    return E("no field " + name);
  }
};

// DUMP from redis-server 7.0.15 after the commands of the tests below (the groups' in one MULTI, all within
// millisecond kGroupsMs).
constexpr std::int64_t kGroupsMs = 1795675219824;
const std::string kRedisNodes("\x13\x02\x10\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x01\x40\x67\x67\x00\x00"
    "\x00\x1f\x00\x03\x01\x01\x01\x02\x01\x84\x6e\x61\x6d\x65\x05\x83\x61\x67\x65\x04\x00\x01\x02\x01"
    "\x00\x01\x00\x01\x85\x61\x6c\x69\x63\x65\x06\x1e\x01\x05\x01\x03\x01\x00\x01\x01\x01\x83\x62\x6f"
    "\x62\x04\x1f\x01\x05\x01\x00\x01\x01\x01\xdf\xff\x02\x01\x01\x84\x63\x69\x74\x79\x05\x85\x70\x61"
    "\x72\x69\x73\x06\x06\x01\x02\x01\x01\x01\x00\x01\x85\x63\x61\x72\x6f\x6c\x06\xf3\x4e\x61\xbc\x00"
    "\x05\x05\x01\xff\x10\x00\x00\x00\x00\x00\x00\x00\x03\x00\x00\x00\x00\x00\x00\x00\x00\xc3\x40\x62"
    "\x40\xa8\x1b\xa8\x00\x00\x00\x19\x00\x02\x01\x01\x01\x02\x01\x84\x6e\x61\x6d\x65\x05\x83\x61\x67"
    "\x65\x04\x00\x01\x03\x01\x00\x20\x01\x09\x84\x64\x61\x76\x65\x05\xdf\xf9\x02\x05\x20\x0c\x00\x00"
    "\x20\x25\x00\x01\x20\x25\x06\x6f\x74\x65\x05\xe0\x5a\x61\xe0\x32\x00\x09\x30\x31\x32\x33\x34\x35"
    "\x36\x37\x38\x39\xe0\x0b\x09\x01\x5c\x06\x20\x8c\x00\x02\x20\x6e\x0a\x84\x65\x72\x69\x6e\x05\x28"
    "\x01\x05\x01\xff\x05\x05\x00\x01\x01\x03\x00\x07\x00\x0a\x00\x09\x22\x3d\x35\xc1\x0a\xe9\xe8", 263);
const std::string kRedisTrimmed("\x13\x01\x10\x00\x00\x00\x00\x00\x00\x00\x0d\x00\x00\x00\x00\x00\x00\x00\x00\xc3\x2f\x36\x07\x36"
    "\x00\x00\x00\x14\x00\x02\x01\x40\x00\x07\x81\x6b\x02\x00\x01\x03\x01\x00\x20\x01\x05\x82\x76\x34"
    "\x03\x04\x01\x40\x16\x40\x0b\x00\x35\x60\x0b\x00\x02\x60\x0b\x00\x36\x20\x0b\x00\xff\x02\x0f\x00"
    "\x0e\x00\x00\x00\x06\x00\x0a\x00\xbe\x38\x9e\x3c\x53\xe9\x76\x7c", 88);
const std::string kRedisGroups("\x13\x01\x10\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\xc3\x38\x3e\x07\x3e"
    "\x00\x00\x00\x19\x00\x03\x01\x40\x00\x07\x81\x66\x02\x00\x01\x02\x01\x00\x20\x01\x03\x81\x76\x02"
    "\x04\x20\x0a\x00\x01\x40\x0a\x00\x77\x60\x0a\x40\x17\x01\x81\x78\x20\x0a\x00\x03\x20\x01\x20\x0a"
    "\x00\x79\x20\x0a\x00\xff\x03\x04\x00\x01\x00\x04\x00\x04\x03\x03\x67\x72\x70\x03\x00\x03\x02\x00"
    "\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x70\x67\x95\x16\xa2\x01\x00\x00\x02"
    "\x00\x00\x00\x00\x00\x00\x00\x03\x00\x00\x00\x00\x00\x00\x00\x00\x70\x67\x95\x16\xa2\x01\x00\x00"
    "\x01\x03\x05\x61\x6c\x69\x63\x65\x70\x67\x95\x16\xa2\x01\x00\x00\x00\x03\x62\x6f\x62\x70\x67\x95"
    "\x16\xa2\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x03\x00\x00\x00\x00\x00\x00\x00\x00\x05\x63"
    "\x61\x72\x6f\x6c\x70\x67\x95\x16\xa2\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00"
    "\x00\x00\x00\x00\x00\x04\x6c\x61\x74\x65\x04\x00\x81\xff\xff\xff\xff\xff\xff\xff\xff\x00\x00\x03"
    "\x6d\x69\x64\x02\x00\x81\xff\xff\xff\xff\xff\xff\xff\xff\x00\x00\x0a\x00\x3f\x9b\xd5\x52\x61\xa3"
    "\x9c\xc9", 266);
const std::string kRedisLongString("\x00\xc3\x09\x40\x64\x01\x61\x61\xe0\x57\x00\x01\x61\x61\x0a\x00\xe8\xa3\xb5\x07\xb0\x6d\xf2\x71", 24);
const std::string kRedisText("\x00\xc3\x19\x40\x53\x0a\x61\x62\x63\x64\x65\x66\x67\x68\x69\x6a\x61\xe0\x1e\x09\x02\x78\x79\x7a"
    "\xe0\x13\x2a\x01\x69\x6a\x0a\x00\x04\x7f\xd7\x2f\x90\x86\xdc\x33", 40);
const std::string kRedisCompressedList("\x12\x01\x02\xc3\x1c\x40\x6d\x0b\x6d\x00\x00\x00\x03\x00\xb2\x68\x65\x6c\x6c\x6f\xe0\x24\x04\x01"
    "\x33\xad\xe0\x24\x2e\x04\x2e\x81\x78\x02\xff\x0a\x00\xdb\x0e\x3a\x61\x2a\x33\x93\x58", 45);
const std::string kRedisCompressedHash("\x10\xc3\x26\x40\x66\x13\x66\x00\x00\x00\x04\x00\x86\x66\x69\x65\x6c\x64\x31\x07\xa8\x76\x61\x6c"
    "\x75\x65\xe0\x1a\x04\x00\x29\x80\x31\x02\x32\x07\xa3\xe0\x1a\x2c\x01\x24\xff\x0a\x00\x44\xd3\x1d"
    "\x01\x41\x7f\xa0\x70", 53);

void run_node_commands(MockFixture& mock) {
  mock.run({"config", "set", "stream-node-max-entries", "4"});
  mock.run({"xadd", "s", "1-1", "name", "alice", "age", "30"});
  mock.run({"xadd", "s", "1-2", "name", "bob", "age", "31"});
  mock.run({"xadd", "s", "2-0", "city", "paris"});
  mock.run({"xadd", "s", "2-1", "name", "carol", "age", "12345678"});
  mock.run({"xadd", "s", "3-0", "name", "dave", "age", "-7"});
  std::string note(60, 'a');
  for (int i = 0; i < 3; ++i) note += "0123456789";
  mock.run({"xadd", "s", "3-1", "note", note});
  mock.run({"xadd", "s", "5-0", "name", "erin", "age", "40"});
  mock.run({"xdel", "s", "1-2"});
  mock.run({"xdel", "s", "3-0"});
  mock.run({"config", "set", "stream-node-max-entries", "100"});
  mock.run({"config", "set", "stream-node-max-bytes", "60"});
  mock.run({"xadd", "t", "10-0", "k", "v1"});
  mock.run({"xadd", "t", "11-0", "k", "v2"});
  mock.run({"xadd", "t", "12-0", "k", "v3", "extra", "field"});
  mock.run({"xadd", "t", "13-0", "k", "v4"});
  mock.run({"xadd", "t", "14-0", "k", "v5"});
  mock.run({"xadd", "t", "15-0", "k", "v6"});
  mock.run({"xtrim", "t", "maxlen", "4"});
  mock.run({"xtrim", "t", "minid", "14"});
  mock.run({"config", "set", "stream-node-max-bytes", "4096"});
}

void run_group_commands(MockFixture& mock) {
  mock.run({"multi"});
  for (const auto& [id, value] : {std::pair{"1-0", "v"}, std::pair{"2-0", "w"}, std::pair{"3-0", "x"}, std::pair{"4-0", "y"}}) {
    mock.run({"xadd", "g", id, "f", value});
  }
  mock.run({"xgroup", "create", "g", "grp", "0"});
  mock.run({"xgroup", "create", "g", "late", "$"});
  mock.run({"xgroup", "create", "g", "mid", "2-0"});
  mock.run({"xreadgroup", "group", "grp", "alice", "count", "2", "streams", "g", ">"});
  mock.run({"xreadgroup", "group", "grp", "bob", "count", "1", "streams", "g", ">"});
  mock.run({"xgroup", "createconsumer", "g", "grp", "carol"});
  mock.run({"xclaim", "g", "grp", "carol", "0", "2-0"});
  mock.run({"xack", "g", "grp", "1-0"});
  mock.run({"xdel", "g", "4-0"});
  mock.run({"exec"});
}

TEST_F(DumpStream, DumpWritesRedisBytesForNodesDeletionsAndTrims) {
  run_node_commands(*this);
  EXPECT_EQ(dump("s"), kRedisNodes);
  EXPECT_EQ(dump("t"), kRedisTrimmed);
}

TEST_F(DumpStream, DumpWritesRedisBytesForGroupsPendingEntriesAndConsumers) {
  now_ms = kGroupsMs;
  run_group_commands(*this);
  EXPECT_EQ(dump("g"), kRedisGroups);
}

TEST_F(DumpStream, DumpCompressesLongStringsAsRedisDoes) {
  run({"set", "long", std::string(100, 'a')});
  std::string text;
  for (int i = 0; i < 5; ++i) text += "abcdefghij";
  text += "xyz";
  for (int i = 0; i < 3; ++i) text += "abcdefghij";
  run({"set", "text", text});
  std::string hello;
  for (int i = 0; i < 10; ++i) hello += "hello";
  run({"rpush", "l", hello, hello.substr(5), "x"});
  std::string value;
  for (int i = 0; i < 8; ++i) value += "value";
  run({"hset", "h", "field1", value, "field2", value.substr(5)});
  EXPECT_EQ(dump("long"), kRedisLongString);
  EXPECT_EQ(dump("text"), kRedisText);
  EXPECT_EQ(dump("l"), kRedisCompressedList);
  EXPECT_EQ(dump("h"), kRedisCompressedHash);
  EXPECT_REPLY(run({"restore", "long2", "0", kRedisLongString}), S("OK"));
  EXPECT_REPLY(run({"get", "long2"}), B(std::string(100, 'a')));
}

TEST_F(DumpStream, RestoresRedisPayloadsToTheSameStreams) {
  run_node_commands(*this);
  now_ms = kGroupsMs;
  run_group_commands(*this);
  for (const auto& [key, payload] : {std::pair{"s", kRedisNodes}, std::pair{"t", kRedisTrimmed}, std::pair{"g", kRedisGroups}}) {
    const std::string copy = std::string(key) + "-restored";
    EXPECT_REPLY(run({"restore", copy, "0", payload}), S("OK"));
    EXPECT_EQ(to_string(run({"xinfo", "stream", copy, "full"})), to_string(run({"xinfo", "stream", key, "full"}))) << key;
    EXPECT_EQ(dump(copy), payload) << key;
    // Appending goes on filling the restored nodes as the original's.
    run({"xadd", key, "99-0", "name", "zed", "age", "1"});
    run({"xadd", copy, "99-0", "name", "zed", "age", "1"});
    EXPECT_EQ(dump(copy), dump(key)) << key;
  }
  EXPECT_REPLY(run({"type", "g-restored"}), S("stream"));
  EXPECT_REPLY(run({"xpending", "g-restored", "grp", "-", "+", "10", "carol"}),
               A({A({B("2-0"), B("carol"), I(0), I(2)})}));
}

std::string raw_id(std::uint64_t ms) {
  std::string out;
  for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<char>((ms >> shift) & 0xff));
  return out + std::string(8, '\0');
}

// A 6.2 server's RDB_TYPE_STREAM_LISTPACKS payload, written here: entries 1-0 to 5-0 (field k) in one node
// with the first three flagged deleted (an XDEL and an exact trim to two entries), and four groups: "ga" at
// 4-0 with 3-0 and 4-0 pending for c1, "gb" at 0-0, "gc" at 2-0, "gd" at 9-0.
std::string legacy_payload(std::int64_t delivered_ms) {
  std::vector<std::string> elements = {"2", "3", "1", "k", "0"};
  for (int i = 1; i <= 5; ++i) {
    elements.insert(elements.end(), {i <= 3 ? "3" : "2", std::to_string(i - 1), "0", "v" + std::to_string(i), "4"});
  }
  std::string out("\x0f\x01", 2);
  put_rdb_string(out, raw_id(1));
  put_rdb_string(out, encode_listpack(std::vector<std::string_view>(elements.begin(), elements.end())));
  for (std::uint64_t value : std::initializer_list<std::uint64_t>{2, 5, 0}) put_rdb_length(out, value);  // length, last ID
  put_rdb_length(out, 4);
  auto group = [&](const std::string& name, std::uint64_t last_ms, bool pending) {
    put_rdb_string(out, name);
    put_rdb_length(out, last_ms);
    put_rdb_length(out, 0);
    put_rdb_length(out, pending ? 2u : 0u);
    for (std::uint64_t ms : std::initializer_list<std::uint64_t>{3, 4}) {
      if (!pending) break;
      out += raw_id(ms);
      put_little_endian(out, static_cast<std::uint64_t>(delivered_ms), 8);
      put_rdb_length(out, 1);
    }
    put_rdb_length(out, pending ? 1u : 0u);
    if (!pending) return;
    put_rdb_string(out, "c1");
    put_little_endian(out, static_cast<std::uint64_t>(delivered_ms), 8);
    put_rdb_length(out, 2);
    out += raw_id(3) + raw_id(4);
  };
  group("ga", 4, true);
  group("gb", 0, false);
  group("gc", 2, false);
  group("gd", 9, false);
  append_dump_footer(out);
  return out;
}

TEST_F(DumpStream, LegacyPayloadDerivesCountersAsRedis7Does) {
  EXPECT_REPLY(run({"restore", "x", "0", legacy_payload(now_ms)}), S("OK"));
  EXPECT_REPLY(run({"xrange", "x", "-", "+"}), A({A({B("4-0"), A({B("k"), B("v4")})}), A({B("5-0"), A({B("k"), B("v5")})})}));
  const Reply info = run({"xinfo", "stream", "x", "full"});
  EXPECT_REPLY(field(info, "length"), I(2));
  EXPECT_REPLY(field(info, "max-deleted-entry-id"), B("0-0"));
  EXPECT_REPLY(field(info, "entries-added"), I(2));
  EXPECT_REPLY(field(info, "recorded-first-entry-id"), B("4-0"));
  const Reply groups = field(info, "groups");
  ASSERT_EQ(groups.elements.size(), 4u);
  const std::vector<std::pair<Reply, Reply>> read_and_lag = {{I(1), I(1)}, {I(0), I(2)}, {I(0), I(2)}, {N(), N()}};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_REPLY(field(groups.elements[i], "entries-read"), read_and_lag[i].first) << i;
    EXPECT_REPLY(field(groups.elements[i], "lag"), read_and_lag[i].second) << i;
  }
  EXPECT_REPLY(run({"xpending", "x", "ga"}), A({I(2), B("3-0"), B("4-0"), A({A({B("c1"), B("2")})})}));
  // Written back as 7.0's type, with what was derived.
  const std::string again = dump("x");
  EXPECT_EQ(static_cast<unsigned char>(again[0]), 19);
  EXPECT_REPLY(run({"restore", "y", "0", again}), S("OK"));
  EXPECT_EQ(to_string(run({"xinfo", "stream", "y", "full"})), to_string(info));
}

TEST_F(DumpStream, MalformedStreamPayloadsAreBadDataFormat) {
  now_ms = kGroupsMs;
  run_group_commands(*this);
  const std::string body = kRedisGroups.substr(0, kRedisGroups.size() - 10);
  auto with_footer = [](std::string payload) {
    append_dump_footer(payload);
    return payload;
  };
  // 7.2's RDB_TYPE_STREAM_LISTPACKS_3 (21) is a type 7.0.15 does not know.
  EXPECT_REPLY(run({"restore", "k", "0", with_footer("\x15" + body.substr(1))}), E("ERR Bad data format"));
  // Every truncation and a few values at every byte: OK or Bad data format, never a read past the payload.
  for (std::size_t cut = 1; cut < body.size(); ++cut) {
    const Reply reply = run({"restore", "k", "0", with_footer(body.substr(0, cut)), "replace"});
    EXPECT_TRUE(reply == S("OK") || reply == E("ERR Bad data format")) << cut << " " << to_string(reply);
  }
  for (std::size_t at = 1; at < body.size(); ++at) {
    for (char value : {'\x00', '\x01', '\x7f', '\xc3', '\xff'}) {
      std::string changed = body;
      changed[at] = value;
      const Reply reply = run({"restore", "k", "0", with_footer(changed), "replace"});
      EXPECT_TRUE(reply == S("OK") || reply == E("ERR Bad data format")) << at << " " << to_string(reply);
    }
  }
}

TEST_F(DumpStream, RestoreOptionsAndNotificationsAsForOtherTypes) {
  now_ms = kGroupsMs;
  run_group_commands(*this);
  const std::string payload = dump("g");
  EXPECT_REPLY(run({"restore", "g", "0", payload}), E("BUSYKEY Target key name already exists."));
  EXPECT_REPLY(run({"restore", "g", "5000", payload, "replace", "idletime", "100"}), S("OK"));
  EXPECT_REPLY(run({"object", "idletime", "g"}), I(100));
  EXPECT_REPLY(run({"pttl", "g"}), I(5000));
  EXPECT_REPLY(run({"restore", "h", std::to_string(now_ms + 7000), payload, "absttl"}), S("OK"));
  EXPECT_REPLY(run({"pttl", "h"}), I(7000));
  EXPECT_REPLY(run({"object", "encoding", "h"}), B("stream"));
}

}  // namespace
}  // namespace lockcheck::mock::testing
