// The ground with one family and a table of its own, without lockcheck_mock (README.md, "Folders"): this binary
// links only lockcheck_mock_ground and lockcheck_mock_string, so a ground that called up into another family
// would not link.
#include <cstdint>
#include <stdexcept>

#include <gtest/gtest.h>

#include "redis/command_table/command_table.hpp"
#include "redis/server/node.hpp"
#include "redis/types/string/string_family.hpp"

namespace lockcheck::mock {
namespace {

const CommandTable& strings_only() {
  static const CommandTable table = [] {
    CommandTable commands;
    register_string_commands(commands);
    commands.freeze();
    return commands;
  }();
  return table;
}

TEST(MockGroundAlone, ServesItsFamilyAndNoOther) {
  Node node(NodeOptions{.clock = [] { return std::int64_t{1'700'000'000'000}; }, .commands = &strings_only()});
  Session session{.client_id = 1};
  EXPECT_EQ(node.execute({"SET", "lock", "token", "PX", "30000", "NX"}, session), Reply::ok());
  EXPECT_EQ(node.execute({"get", "lock"}, session), Reply::bulk("token"));
  EXPECT_EQ(node.execute({"HSET", "h", "f", "v"}, session),
            Reply::error("ERR unknown command 'HSET', with args beginning with: 'h' 'f' 'v' "));
  EXPECT_EQ(find_command("hset"), nullptr);
  ASSERT_NE(find_command("INCRBYFLOAT"), nullptr);
  EXPECT_EQ(all_commands().size(), strings_only().all().size());
}

TEST(MockGroundAlone, OneTablePerProcess) {
  Node node(NodeOptions{.clock = [] { return std::int64_t{0}; }, .commands = &strings_only()});
  CommandTable other;
  register_string_commands(other);
  other.freeze();
  EXPECT_THROW(Node(NodeOptions{.clock = [] { return std::int64_t{0}; }, .commands = &other}), std::logic_error);
}

TEST(MockGroundAlone, ATableRefusesANameTwice) {
  CommandTable table;
  register_string_commands(table);
  register_string_commands(table);
  EXPECT_THROW(table.freeze(), std::logic_error);
}

}  // namespace
}  // namespace lockcheck::mock
