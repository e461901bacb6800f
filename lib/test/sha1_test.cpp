#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lockcheck/sha1.hpp"

namespace lockcheck {
namespace {

// Vectors from FIPS 180 examples; the last is the sha Redis gives `return 1`'s script body.
TEST(Sha1, MatchesKnownDigests) {
  EXPECT_EQ(sha1_hex(""), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  EXPECT_EQ(sha1_hex("abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(sha1_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
  EXPECT_EQ(sha1_hex(std::string(1000000, 'a')), "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
}

// Remembered digests are the digests, before the memory fills, across its forgetting (600 bodies: past the 256
// it keeps) and when a body comes back.
TEST(Sha1, RememberedDigestsAreTheDigests) {
  for (int round = 0; round < 2; ++round) {
    for (int body = 0; body < 600; ++body) {
      const std::string text = "return " + std::to_string(body);
      ASSERT_EQ(remembered_sha1_hex(text), sha1_hex(text)) << text << ", round " << round;
    }
  }
  EXPECT_EQ(remembered_sha1_hex("abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
}

// The few bodies looked up last are answered first: bodies taking turns, more of them than are kept that way,
// bodies that differ only in their last character or length, and the same bodies again after the memory forgot.
TEST(Sha1, RecentDigestsAreTheDigestsWhateverTheOrder) {
  const std::vector<std::string> bodies = {"return 1", "return 10", "return 2", "return 1 ", "", "return 1"};
  for (int round = 0; round < 3; ++round) {
    for (std::size_t step = 0; step < 40; ++step) {
      const std::string& text = bodies[(step * (round + 1)) % bodies.size()];
      ASSERT_EQ(remembered_sha1_hex(text), sha1_hex(text)) << "'" << text << "', round " << round << ", step " << step;
    }
    for (int body = 0; body < 300; ++body) remembered_sha1_hex("forget " + std::to_string(body));  // past the 256 kept
  }
}

}  // namespace
}  // namespace lockcheck
