// A Lua state's region (lua_region.hpp): lua_Alloc's contract, and a state copied back from a region's template
// reads as the state the sandbox's setup makes, with nothing of the region's earlier state left in it.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "lockcheck/sha1.hpp"
#include "redis/scripting/lua_engine.hpp"
#include "redis/scripting/lua_region.hpp"
#include "redis/server/node.hpp"

namespace lockcheck::mock {
namespace {

constexpr std::size_t kLimitBytes = 256u << 20;  // NodeOptions' default script memory limit

std::string pattern(std::size_t bytes) {
  std::string text(bytes, '\0');
  for (std::size_t i = 0; i < bytes; ++i) text[i] = static_cast<char>('a' + i % 26);
  return text;
}

TEST(LuaRegion, ResizingKeepsTheFirstBytes) {
  std::unique_ptr<LuaRegion> region = LuaRegion::take(kLimitBytes);
  ASSERT_NE(region, nullptr);
  // Within a class, across the small classes, into the power-of-two ones and back, down to a byte.
  const std::size_t sizes[] = {1, 8, 16, 17, 100, 256, 257, 512, 513, 4096, 200, 3, 3u << 20, 5000, 1};
  std::size_t bytes = 10;
  void* block = region->resize(nullptr, 0, bytes);
  ASSERT_NE(block, nullptr);
  std::memcpy(block, pattern(bytes).data(), bytes);
  for (const std::size_t next : sizes) {
    block = region->resize(block, bytes, next);
    ASSERT_NE(block, nullptr);
    const std::size_t kept = std::min(bytes, next);
    EXPECT_EQ(std::string(static_cast<const char*>(block), kept), pattern(kept)) << bytes << " -> " << next;
    std::memcpy(block, pattern(next).data(), next);
    bytes = next;
  }
  region->release(block, bytes);
}

TEST(LuaRegion, AReleasedBlockIsTheNextOfItsClass) {
  std::unique_ptr<LuaRegion> region = LuaRegion::take(kLimitBytes);
  ASSERT_NE(region, nullptr);
  void* small = region->resize(nullptr, 0, 40);
  void* large = region->resize(nullptr, 0, 3000);
  region->release(small, 40);
  region->release(large, 3000);
  EXPECT_EQ(region->resize(nullptr, 0, 48), small);   // 33..48 bytes: one class
  EXPECT_EQ(region->resize(nullptr, 0, 2049), large);  // 2049..4096 bytes: one class
}

TEST(LuaRegion, OnlyTheLimitsWhereASetupCannotFailGetOne) {
  EXPECT_EQ(LuaRegion::take(1u << 20), nullptr);  // a small limit: the setup may not fit, and must fail as before
  EXPECT_NE(LuaRegion::take(16u << 20), nullptr);
}

struct ClockedNode {
  Node node{NodeOptions{.clock = [] { return std::int64_t{1'700'000'000'000}; }}};
  Session session{.client_id = 1};
  std::string run(const Command& command) { return to_string(node.execute(command, session)); }
  std::string memory() {
    const std::string info = node.execute({"info", "memory"}, session).text;
    const std::size_t at = info.find("used_memory_lua:");
    return info.substr(at, info.find("\r\n", at) - at);
  }
};

// What one node sees from its first script on: replies and used_memory_lua after each.
std::vector<std::string> first_scripts_of_a_node() {
  ClockedNode fresh;
  std::vector<std::string> seen{fresh.memory()};
  for (const Command& command :
       {Command{"eval", "return getmetatable('').left_behind", "0"}, Command{"eval", "return math.random(1000000)", "0"},
        Command{"eval", "return cjson.encode({1, 'two'})", "0"},
        Command{"eval", "return redis.call('set', KEYS[1], ARGV[1])", "1", "k", "v"},
        Command{"eval", "local t = {} for i = 1, 100 do t[i] = tostring(i) end return #t", "0"}}) {
    seen.push_back(fresh.run(command));
    seen.push_back(fresh.memory());
  }
  return seen;
}

// A node whose state is copied back from a region's template reads as the first node of a thread did (on a
// thread of its own, the first node's state is set up in a new region): the same replies, the same memory, and
// nothing of an earlier node's scripts, however much they allocated or left behind.
TEST(LuaRegion, AStateFromTheTemplateIsAFreshState) {
  std::vector<std::string> set_up;
  std::thread([&] { set_up = first_scripts_of_a_node(); }).join();
  {
    ClockedNode earlier;
    // The string metatable and the random generator are what a script can change for the scripts after it.
    EXPECT_EQ(earlier.run({"eval", "getmetatable('').left_behind = 'by an earlier node' return getmetatable('').left_behind", "0"}),
              to_string(Reply::bulk("by an earlier node")));
    earlier.run({"eval", "math.randomseed(5) return 1", "0"});
    earlier.run({"eval", "local t = {} for i = 1, 20000 do t[i] = {i, tostring(i)} end return #t", "0"});
    earlier.run({"script", "load", "return 'cached'"});
  }
  EXPECT_EQ(first_scripts_of_a_node(), set_up);
  ClockedNode later;
  EXPECT_EQ(later.run({"evalsha", sha1_hex("return 'cached'"), "0"}), to_string(Reply::error("NOSCRIPT No matching script. Please use EVAL.")));
}

}  // namespace
}  // namespace lockcheck::mock
