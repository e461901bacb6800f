// COMMAND INFO and DOCS of every command the mock serves, against a private redis-server 7.0.15: the arity, the
// first key, the last key, the step, the ACL categories and the group must be Redis's. The mock's rows hold a command's name,
// arity, flags and handler; where its keys are (command_table/command_keys.cpp, the exceptions to "one key at
// argument 1") and its categories (acl/acl_categories.cpp, 7.0.15's table) are data beside the rows, so a
// command added to a family with keys elsewhere, or one 7.0.15 does not have, is named here.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "hiredis_client.hpp"
#include "mock_test_support.hpp"
#include "raw_connection.hpp"
#include "redis/command_table/command.hpp"
#include "redis_server.hpp"

namespace lockcheck::mock::testing {
namespace {

using lockcheck::testing::HiredisClient;

// An array of statuses (flags, categories) as its sorted texts: Redis lists them in its own order.
std::vector<std::string> sorted_texts(const Reply& array) {
  std::vector<std::string> texts;
  for (const Reply& element : array.elements) texts.push_back(element.text);
  std::sort(texts.begin(), texts.end());
  return texts;
}

std::string joined(const std::vector<std::string>& texts) {
  std::string out;
  for (const std::string& text : texts) out += text + " ";
  return out;
}

// COMMAND DOCS name: the value of its "group" field ("" when absent). The reply is the command's name and its
// fields as name, value, name, value... (a map on RESP3, an array on RESP2: the elements alike).
std::string docs_group(const Reply& docs) {
  if (docs.elements.size() != 2) return "";
  const Reply& fields = docs.elements[1];
  for (std::size_t i = 0; i + 1 < fields.elements.size(); i += 2) {
    if (fields.elements[i].text == "group") return fields.elements[i + 1].text;
  }
  return "";
}

// The same from COMMAND DOCS's raw RESP2 bytes (hiredis refuses replies nested deeper than 7, which a container's
// docs are): the first "group" field is the command's own (its subcommands' come after its own fields).
std::string raw_docs_group(const std::string& bytes) {
  const std::string field = "$5\r\ngroup\r\n";
  const std::size_t at = bytes.find(field);
  if (at == std::string::npos) return "";
  const std::size_t value = at + field.size();
  const std::size_t line_end = bytes.find("\r\n", value);
  if (line_end == std::string::npos) return "";
  if (bytes[value] == '+') return bytes.substr(value + 1, line_end - value - 1);
  if (bytes[value] != '$') return "";
  const auto length = static_cast<std::size_t>(std::stoul(bytes.substr(value + 1, line_end - value - 1)));
  return bytes.substr(line_end + 2, length);
}

std::string resp2_request(const Command& command) {
  std::string out = "*" + std::to_string(command.size()) + "\r\n";
  for (const std::string& arg : command) out += "$" + std::to_string(arg.size()) + "\r\n" + arg + "\r\n";
  return out;
}

TEST(CommandInfoDifferential, EveryCommandsArityKeyPositionsAndCategoriesAreRedis) {
  lockcheck::testing::RedisServer server;
  HiredisClient real(server);
  RawConnection raw(server.host(), server.port());
  MockFixture mock;
  int compared = 0;
  for (const CommandSpec& spec : all_commands()) {
    const std::string name(spec.name);
    const Reply theirs = real.call({"COMMAND", "INFO", name});
    const Reply ours = mock.run({"COMMAND", "INFO", name});
    ASSERT_EQ(theirs.elements.size(), 1u) << name;
    ASSERT_EQ(ours.elements.size(), 1u) << name;
    const Reply& their_info = theirs.elements[0];
    const Reply& our_info = ours.elements[0];
    if (their_info.is_nil()) {
      ADD_FAILURE() << name << ": the mock serves it, redis-server 7.0.15 has no such command";
      continue;
    }
    ASSERT_GE(their_info.elements.size(), 7u) << name;
    ASSERT_GE(our_info.elements.size(), 7u) << name;
    EXPECT_EQ(our_info.elements[1].integer, their_info.elements[1].integer) << name << ": arity";
    EXPECT_EQ(our_info.elements[3].integer, their_info.elements[3].integer) << name << ": first key";
    EXPECT_EQ(our_info.elements[4].integer, their_info.elements[4].integer) << name << ": last key";
    EXPECT_EQ(our_info.elements[5].integer, their_info.elements[5].integer) << name << ": step between keys";
    EXPECT_EQ(joined(sorted_texts(our_info.elements[6])), joined(sorted_texts(their_info.elements[6]))) << name << ": ACL categories";
    EXPECT_EQ(docs_group(mock.run({"COMMAND", "DOCS", name})), raw_docs_group(raw.exchange(resp2_request({"COMMAND", "DOCS", name}), 1)))
        << name << ": group";
    ++compared;
  }
  EXPECT_EQ(compared, static_cast<int>(all_commands().size()));
  EXPECT_GT(compared, 200) << "the whole table";
}

}  // namespace
}  // namespace lockcheck::mock::testing
