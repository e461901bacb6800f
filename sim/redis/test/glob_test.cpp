// Redis's glob patterns (stringmatchlen), as CONFIG GET, KEYS and PSUBSCRIBE use them.
#include <gtest/gtest.h>

#include "redis/util/glob.hpp"

namespace lockcheck::mock {
namespace {

TEST(Glob, StarsQuestionMarksClassesAndEscapes) {
  EXPECT_TRUE(glob_match("*", ""));
  EXPECT_TRUE(glob_match("maxmemory*", "maxmemory-policy"));
  EXPECT_FALSE(glob_match("maxmemory*", "max-memory"));
  EXPECT_TRUE(glob_match("*-policy", "maxmemory-policy"));
  EXPECT_TRUE(glob_match("a*b*c", "axxbyyc"));
  EXPECT_FALSE(glob_match("a*b*c", "axxbyy"));
  EXPECT_TRUE(glob_match("h?llo", "hello"));
  EXPECT_FALSE(glob_match("h?llo", "hllo"));
  EXPECT_TRUE(glob_match("h[ae]llo", "hallo"));
  EXPECT_FALSE(glob_match("h[ae]llo", "hillo"));
  EXPECT_TRUE(glob_match("h[^e]llo", "hallo"));
  EXPECT_FALSE(glob_match("h[^e]llo", "hello"));
  EXPECT_TRUE(glob_match("h[a-c]llo", "hbllo"));
  EXPECT_TRUE(glob_match("h[c-a]llo", "hbllo")) << "reversed ranges, as Redis";
  EXPECT_TRUE(glob_match("a\\*b", "a*b"));
  EXPECT_FALSE(glob_match("a\\*b", "axb"));
  EXPECT_FALSE(glob_match("MAXMEMORY", "maxmemory"));
  EXPECT_TRUE(glob_match("MAXMEMORY", "maxmemory", /*nocase=*/true));
  EXPECT_TRUE(glob_match("*a*a*a*a*a*a*b", std::string(40, 'a') + "b")) << "backtracking stays linear enough";
}

}  // namespace
}  // namespace lockcheck::mock
