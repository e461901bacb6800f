// The ASCII case helpers: lower_into (eight bytes a step) agrees with ascii_lower byte by byte.
#include <gtest/gtest.h>

#include <string>

#include "redis/util/text.hpp"

namespace lockcheck::mock {
namespace {

std::string lowered_one_by_one(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

TEST(Text, LowerIntoLowersEveryByteAsAsciiLowerDoes) {
  // Every byte value at every position of a 40-byte text (a sha's length), next to bytes that are not letters.
  for (int value = 0; value < 256; ++value) {
    for (std::size_t at = 0; at < 40; ++at) {
      std::string text(40, '@');  // '@' is 'A' - 1
      text[at] = static_cast<char>(value);
      if (at + 1 < text.size()) text[at + 1] = '[';  // 'Z' + 1
      char buffer[40];
      ASSERT_EQ(lower_into(text, buffer), lowered_one_by_one(text)) << "byte " << value << " at " << at;
    }
  }
  const std::string mixed = "EvalSHA ABCDEFGHIJKLMNOPQRSTUVWXYZ abcxyz 0123456789 \x80\xc1\xda\xff";
  for (std::size_t length = 0; length <= mixed.size(); ++length) {
    char buffer[64];
    EXPECT_EQ(lower_into(std::string_view(mixed).substr(0, length), buffer), lowered_one_by_one(mixed.substr(0, length)));
  }
  char short_buffer[5];
  EXPECT_EQ(lower_into("ABCDEFGHIJ", short_buffer), "abcde");  // cut at the buffer's size
}

}  // namespace
}  // namespace lockcheck::mock
