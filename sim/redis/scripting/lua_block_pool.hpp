#pragma once
// The small blocks a Lua state frees, kept for its next allocations of the same size class. Every script run
// allocates and the collector frees the same kinds of blocks (KEYS/ARGV tables, strings, closures); taking
// them from here instead of malloc/free was a tenth of a simulated Redlock event. Sizes, and so the memory a
// state reports, are the ones Lua asks for: only where the bytes live changes.
#include <array>
#include <cstddef>

namespace lockcheck::mock {

class LuaBlockPool {
 public:
  LuaBlockPool() = default;
  ~LuaBlockPool();
  LuaBlockPool(const LuaBlockPool&) = delete;
  LuaBlockPool& operator=(const LuaBlockPool&) = delete;

  // lua_Alloc's contract for a block that is not NULL and a size that is not 0: `block` of `old_bytes`
  // (NULL for a new block) becomes one of `new_bytes`, its first bytes kept; NULL on failure, `block` intact.
  void* resize(void* block, std::size_t old_bytes, std::size_t new_bytes);
  void release(void* block, std::size_t bytes);

 private:
  static constexpr std::size_t kGranuleBytes = 16;  // keeps malloc's alignment
  static constexpr std::size_t kClasses = 16;       // blocks up to 256 bytes are pooled
  // Free blocks kept at most: a collection cycle of a sandbox frees about its live size (~100 KiB), and a
  // script that built much more gives the rest back to malloc.
  static constexpr std::size_t kKeptBytesLimit = 1u << 20;

  static std::size_t class_of(std::size_t bytes) { return (bytes + kGranuleBytes - 1) / kGranuleBytes - 1; }
  void* take(std::size_t size_class);

  struct FreeBlock {
    FreeBlock* next;
  };
  std::array<FreeBlock*, kClasses> free_{};
  std::size_t kept_bytes_ = 0;
};

}  // namespace lockcheck::mock
