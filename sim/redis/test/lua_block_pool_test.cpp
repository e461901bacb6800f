// The Lua state's block pool: lua_Alloc's contract (contents kept across resizes, in and out of the pooled
// sizes) and reuse of released blocks.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "redis/scripting/lua_block_pool.hpp"

namespace lockcheck::mock {
namespace {

std::string pattern(std::size_t bytes) {
  std::string text(bytes, '\0');
  for (std::size_t i = 0; i < bytes; ++i) text[i] = static_cast<char>('a' + i % 26);
  return text;
}

TEST(LuaBlockPool, ResizingKeepsTheFirstBytes) {
  LuaBlockPool pool;
  // Within a class, across classes, out of the pooled sizes and back, down to a byte.
  const std::size_t sizes[] = {1, 8, 16, 17, 100, 256, 257, 4096, 200, 3, 5000, 1};
  std::size_t bytes = 10;
  void* block = pool.resize(nullptr, 0, bytes);
  ASSERT_NE(block, nullptr);
  std::memcpy(block, pattern(bytes).data(), bytes);
  for (const std::size_t next : sizes) {
    block = pool.resize(block, bytes, next);
    ASSERT_NE(block, nullptr);
    const std::size_t kept = std::min(bytes, next);
    EXPECT_EQ(std::string(static_cast<const char*>(block), kept), pattern(kept)) << bytes << " -> " << next;
    std::memcpy(block, pattern(next).data(), next);
    bytes = next;
  }
  pool.release(block, bytes);
}

TEST(LuaBlockPool, AReleasedBlockServesTheNextOfItsClass) {
  LuaBlockPool pool;
  void* first = pool.resize(nullptr, 0, 40);
  void* second = pool.resize(nullptr, 0, 40);
  pool.release(first, 40);
  void* third = pool.resize(nullptr, 0, 48);  // 33..48 bytes share a class
  EXPECT_EQ(third, first);
  void* fourth = pool.resize(nullptr, 0, 40);
  EXPECT_NE(fourth, first);
  pool.release(second, 40);
  EXPECT_EQ(pool.resize(nullptr, 0, 33), second);
  pool.release(second, 33);
  pool.release(third, 48);
  pool.release(fourth, 40);  // the pool frees what it keeps when it goes
}

}  // namespace
}  // namespace lockcheck::mock
