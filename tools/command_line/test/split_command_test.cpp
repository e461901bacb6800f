// `--client "CMD ARGS"` is split as a shell splits a simple command, with no expansion.
#include "split_command.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace lockcheck::command_line {
namespace {

using Words = std::vector<std::string>;

TEST(SplitCommand, BlanksSeparateAndQuotesKeepThem) {
  EXPECT_EQ(split_command("  node  adapter.js\t--x "), (Words{"node", "adapter.js", "--x"}));
  EXPECT_EQ(split_command("python3 'my dir/a.py' \"b \\\"c\\\"\" d\\ e"), (Words{"python3", "my dir/a.py", "b \"c\"", "d e"}));
  EXPECT_EQ(split_command("a '' b"), (Words{"a", "", "b"}));
  EXPECT_EQ(split_command("echo '$HOME' *"), (Words{"echo", "$HOME", "*"}));  // nothing is expanded
}

TEST(SplitCommand, AnUnterminatedQuoteOrTrailingBackslashIsRefused) {
  EXPECT_THROW(split_command("python3 'x"), std::invalid_argument);
  EXPECT_THROW(split_command("python3 \"x"), std::invalid_argument);
  EXPECT_THROW(split_command("python3 x\\"), std::invalid_argument);
}

}  // namespace
}  // namespace lockcheck::command_line
