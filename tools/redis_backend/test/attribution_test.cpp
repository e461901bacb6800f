// Who caused a server event on real Redis: filled in only where the clients' ops leave one answer.
#include "attribution.hpp"

#include <gtest/gtest.h>

namespace lockcheck::redis_backend {
namespace {

Record op(std::int64_t t, int process, const char* type, const char* f, Json extra = Json::object()) {
  Json fields{{"type", type}, {"process", process}, {"f", f}, {"key", "lock"}};
  for (const auto& [name, value] : extra.items()) fields[name] = value;
  return Record{t, "op", fields};
}

Record server(std::int64_t t, std::int64_t since, const char* event, const std::string& value = "") {
  return Record{t, "server", Json{{"node", 0}, {"event", event}, {"key", "lock"}, {"value", value}, {"by", -1}, {"since_us", since}}};
}

std::int64_t by_of(const std::vector<Record>& records, std::size_t index) { return records[index].fields.value("by", -2); }

TEST(Attribution, TheTokenNamesItsOwner) {
  std::vector<Record> records = {op(10, 1, "invoke", "acquire"), op(20, 2, "invoke", "acquire"),
                                 op(30, 1, "ok", "acquire", Json{{"token", "aaa"}}), server(31, 25, "created", "deadline:aaa")};
  EXPECT_EQ(attribute_server_events(records), 0);
  EXPECT_EQ(by_of(records, 3), 1);
}

TEST(Attribution, TheOneReleaseInFlight) {
  std::vector<Record> records = {op(10, 1, "invoke", "release"), op(12, 2, "invoke", "release"),
                                 op(14, 2, "ok", "release", Json{{"result", "not_owned"}}),  // deleted nothing
                                 op(20, 1, "ok", "release", Json{{"result", "released"}}), server(21, 15, "deleted")};
  EXPECT_EQ(attribute_server_events(records), 0);
  EXPECT_EQ(by_of(records, 4), 1);
}

TEST(Attribution, OpsThatEndedBeforeTheWindowAreNoCandidates) {
  std::vector<Record> records = {op(10, 1, "invoke", "release"), op(20, 1, "ok", "release", Json{{"result", "released"}}),
                                 op(5000, 2, "invoke", "release"), op(5020, 2, "ok", "release", Json{{"result", "released"}}),
                                 server(5021, 5010, "deleted")};
  EXPECT_EQ(attribute_server_events(records), 0);
  EXPECT_EQ(by_of(records, 4), 2);
}

TEST(Attribution, APartitionedProcessCannotHaveDoneIt) {
  std::vector<Record> records = {Record{0, "fault", Json{{"fault", "partition"}, {"process", 2}, {"node", 0}}},
                                 op(10, 1, "invoke", "release"), op(11, 2, "invoke", "release"), server(21, 5, "deleted")};
  EXPECT_EQ(attribute_server_events(records), 0);
  EXPECT_EQ(by_of(records, 3), 1);
}

TEST(Attribution, TheOwnersReleaseWhileOthersAcquire) {
  std::vector<Record> records = {op(1, 1, "invoke", "acquire"), op(2, 1, "ok", "acquire", Json{{"token", "aaa"}}),
                                 server(3, 1, "created", "aaa"), op(10, 2, "invoke", "acquire"), op(11, 1, "invoke", "release"),
                                 server(21, 5, "deleted")};
  EXPECT_EQ(attribute_server_events(records), 0);
  EXPECT_EQ(by_of(records, 5), 1);
}

TEST(Attribution, AForeignRenewIsNotTheTokenOwners) {
  std::vector<Record> records = {op(1, 1, "invoke", "acquire"), op(2, 1, "ok", "acquire", Json{{"token", "aaa"}}),
                                 op(10000, 2, "invoke", "renew"), server(10021, 10005, "expire_set", "aaa")};
  EXPECT_EQ(attribute_server_events(records), 0);
  EXPECT_EQ(by_of(records, 3), 2);
}

TEST(Attribution, ACreatedHashNamesItsOwnerByField) {
  std::vector<Record> records = {op(1, 1, "invoke", "acquire"), op(2, 2, "invoke", "acquire"),
                                 op(3, 2, "ok", "acquire", Json{{"token", "bbb"}}), server(4, 1, "created")};
  records[3].fields["fields"] = Json::array({"bbb"});
  EXPECT_EQ(attribute_server_events(records), 0);
  EXPECT_EQ(by_of(records, 3), 2);
}

Json holders(std::initializer_list<const char*> tokens) {
  Json list = Json::array();
  for (const char* token : tokens) list.push_back(Json{{"token", token}, {"mode", "read"}});
  return list;
}

// A reader's release (HDEL of its own field) while another process acquires: both could have changed the
// hash, so it stays unknown; a reader joining is named by its new field even with a release in flight.
TEST(Attribution, AHashFieldChangeIsJudgedByTheHolderThatJoined) {
  std::vector<Record> records = {op(1, 1, "invoke", "acquire"), op(2, 1, "ok", "acquire", Json{{"token", "aaa"}}),
                                 server(3, 1, "created"), op(10, 2, "invoke", "acquire"), op(11, 1, "invoke", "release"),
                                 server(12, 5, "modified"), op(13, 2, "ok", "acquire", Json{{"token", "bbb"}}),
                                 op(14, 3, "invoke", "acquire"), server(15, 13, "modified")};
  records[2].fields["holders"] = holders({"aaa"});
  records[5].fields["holders"] = holders({"aaa", "bbb"});
  records[8].fields["holders"] = holders({"bbb"});
  EXPECT_EQ(attribute_server_events(records), 1);
  EXPECT_EQ(by_of(records, 2), 1);
  EXPECT_EQ(by_of(records, 5), 2);   // bbb joined: process 2's acquire, though process 1 was releasing
  EXPECT_EQ(by_of(records, 8), -1);  // aaa left: process 1's release or process 3's acquire
}

TEST(Attribution, TwoReleasesInFlightAreLeftUnknownAndCounted) {
  std::vector<Record> records = {op(10, 1, "invoke", "release"), op(11, 2, "invoke", "release"), server(21, 5, "deleted")};
  EXPECT_EQ(attribute_server_events(records), 1);
  EXPECT_EQ(by_of(records, 2), -1);
}

}  // namespace
}  // namespace lockcheck::redis_backend
