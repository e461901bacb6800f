// A command's facts live in its row (command.hpp): where its keys are and its group, read by COMMAND INFO,
// DOCS, GETKEYS and the ACL key checks. These tests read the rows themselves; CommandInfoDifferential compares
// what COMMAND makes of them with redis-server.
#include <stdexcept>
#include <type_traits>

#include <gtest/gtest.h>

#include "redis/command_table/command_keys.hpp"
#include "redis/command_table/command_table.hpp"
#include "mock_test_support.hpp"

namespace lockcheck::mock::testing {
namespace {

// A row cannot leave its keys out: no constructor takes a row without a KeySpec and its access.
static_assert(!std::is_constructible_v<CommandSpec, std::string_view, int, std::uint32_t, Handler>);
static_assert(!std::is_constructible_v<CommandSpec, std::string_view, int, std::uint32_t, KeySpec, Handler>);
static_assert(std::is_constructible_v<CommandSpec, std::string_view, int, std::uint32_t, KeySpec, std::string_view,
                                      Handler>);

const CommandSpec& row(std::string_view name) {
  const CommandSpec* spec = all_families_commands().find(name);
  if (spec == nullptr) throw std::logic_error("no row " + std::string(name));
  return *spec;
}

bool same_keys(const KeySpec& a, const KeySpec& b) {
  return a.first == b.first && a.last == b.last && a.step == b.step && a.count_at == b.count_at &&
         a.movable == b.movable && a.getkeys == b.getkeys;
}

TEST(CommandRows, HoldTheirKeys) {
  EXPECT_TRUE(same_keys(row("get").keys, kFirstKey));
  EXPECT_TRUE(same_keys(row("ping").keys, kNoKeys));
  EXPECT_TRUE(same_keys(row("mset").keys, kKeyValuePairs));
  EXPECT_TRUE(same_keys(row("blpop").keys, kKeysThenTimeout));
  EXPECT_TRUE(same_keys(row("bitop").keys, key_range(2, -1, 1)));
  EXPECT_TRUE(same_keys(row("evalsha_ro").keys, kScriptKeys));
  EXPECT_TRUE(same_keys(row("zunionstore").keys, counted_keys(2, kFirstKey)));
  EXPECT_TRUE(same_keys(row("blmpop").keys, counted_keys(2)));
  EXPECT_TRUE(same_keys(row("xread").keys, movable_keys(kNoKeys)));
  EXPECT_EQ(row("sintercard").keys.getkeys, CountedGetkeys::kStrict);
  EXPECT_EQ(row("eval").keys.getkeys, CountedGetkeys::kLenient);
}

TEST(CommandRows, HoldWhatTheyDoToTheirKeys) {
  EXPECT_EQ(row("get").key_access, "R");
  EXPECT_EQ(row("zunionstore").key_access, "W R");  // the destination, then the sources
  EXPECT_EQ(row("exists").key_access, "-");
  EXPECT_EQ(row("spublish").key_access, "");  // a shard channel is no key to the ACL
  EXPECT_EQ(row("memory").subcommands.back().name, "usage");
  EXPECT_EQ(row("memory").subcommands.back().key_at, 2);
}

TEST(CommandRows, HoldTheirGroupTheFamilysUnlessTheyNameAnother) {
  EXPECT_EQ(row("zadd").group, CommandGroup::kSortedSet);
  EXPECT_EQ(row("hincrbyfloat").group, CommandGroup::kHash);  // a row of the string family
  EXPECT_EQ(row("mget").group, CommandGroup::kString);        // a row of the keys family
  EXPECT_EQ(row("dbsize").group, CommandGroup::kServer);
  EXPECT_EQ(group_name(row("zrandmember").group), "sorted-set");
  for (const CommandSpec& spec : all_families_commands().all()) EXPECT_NE(spec.group, CommandGroup::kOfFamily) << spec.name;
}

class CommandRowKeys : public ::testing::Test, public MockFixture {};

TEST_F(CommandRowKeys, KeyIndexesFollowTheRow) {
  using Indexes = std::optional<std::vector<std::size_t>>;
  EXPECT_EQ(command_key_indexes({"MSET", "a", "1", "b", "2"}), (Indexes{{1, 3}}));
  EXPECT_EQ(command_key_indexes({"zunionstore", "d", "2", "a", "b", "weights", "1", "2"}), (Indexes{{1, 3, 4}}));
  EXPECT_EQ(command_key_indexes({"zunionstore", "d", "3", "a", "b"}), std::nullopt);  // counts more than there are
  EXPECT_EQ(command_key_indexes({"lmpop", "2", "a", "b", "left"}), (Indexes{{2, 3}}));
  EXPECT_EQ(command_key_indexes({"fcall", "f", "1", "k", "arg"}), (Indexes{{3}}));
  EXPECT_EQ(command_key_indexes({"brpop", "a", "b", "0"}), (Indexes{{1, 2}}));
  EXPECT_EQ(command_key_indexes({"ping", "x"}), (Indexes{std::vector<std::size_t>{}}));
}

TEST(CommandTableRows, RefusesARowItCannotRead) {
  const auto refuse = [](KeySpec keys, std::string_view access = "R") {
    CommandTable table;
    table.add(CommandGroup::kString, {{"get", 2, 0, keys, access, nullptr}});
    EXPECT_THROW(table.freeze(), std::logic_error);
  };
  refuse(key_range(2, 1, 1));                                          // ends before it starts
  refuse(key_range(1, -1, 0));                                         // never moves on
  refuse(KeySpec{.first = 1, .last = -1, .step = 1, .count_at = 2});   // a count inside the range
  refuse(KeySpec{.getkeys = CountedGetkeys::kLenient});                // GETKEYS told to follow a count it lacks
  refuse(kFirstKey, "read");
  refuse(kFirstKey, "R ");
  constexpr SubcommandSpec kKeyWithoutAccess[] = {{"usage", -3, 2}};
  CommandTable container;
  container.add(CommandGroup::kServer, {{"memory", -2, 0, kNoKeys, "", nullptr, kKeyWithoutAccess}});
  EXPECT_THROW(container.freeze(), std::logic_error);
  CommandTable table;
  EXPECT_THROW(table.add(CommandGroup::kOfFamily, {{"get", 2, 0, kFirstKey, "R", nullptr}}), std::logic_error);
}

}  // namespace
}  // namespace lockcheck::mock::testing
