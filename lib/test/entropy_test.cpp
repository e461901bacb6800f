// A token is the two words drawn for it, most significant hex digit first, in lower case.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "lockcheck/entropy.hpp"

namespace lockcheck {
namespace {

class ListedEntropy final : public Entropy {
 public:
  explicit ListedEntropy(std::vector<std::uint64_t> words) : words_(std::move(words)) {}
  std::uint64_t next_u64() override { return words_.at(next_++); }

 private:
  std::vector<std::uint64_t> words_;
  std::size_t next_ = 0;
};

TEST(Entropy, ATokenIsItsTwoWordsInHex) {
  ListedEntropy entropy({0x0123456789abcdefULL, 0xfedcba9876543210ULL, 0, UINT64_MAX, 0xf00000000000000aULL, 1});
  EXPECT_EQ(entropy.token_hex(), "0123456789abcdeffedcba9876543210");
  EXPECT_EQ(entropy.token_hex(), "0000000000000000ffffffffffffffff");
  EXPECT_EQ(entropy.token_hex(), "f00000000000000a0000000000000001");
}

TEST(Entropy, OsTokensAreThirtyTwoHexDigitsAndDiffer) {
  OsEntropy entropy;
  const std::string first = entropy.token_hex(), second = entropy.token_hex();
  EXPECT_EQ(first.size(), 32u);
  EXPECT_EQ(first.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_NE(first, second);
}

}  // namespace
}  // namespace lockcheck
