#pragma once
// The small blocks a Lua state frees, kept for its next allocations of the same size class. Every script run
// allocates and the collector frees the same kinds of blocks (KEYS/ARGV tables, strings, closures); taking
// them from here instead of malloc/free was a tenth of a simulated Redlock event. Sizes, and so the memory a
// state reports, are the ones Lua asks for: only where the bytes live changes.
#include <array>
#include <cstddef>
#include <cstdlib>
#include <new>

namespace lockcheck::mock {

class LuaBlockPool {
 public:
  LuaBlockPool() = default;
  ~LuaBlockPool();
  LuaBlockPool(const LuaBlockPool&) = delete;
  LuaBlockPool& operator=(const LuaBlockPool&) = delete;

  // lua_Alloc's contract for a block that is not NULL and a size that is not 0: `block` of `old_bytes`
  // (NULL for a new block) becomes one of `new_bytes`, its first bytes kept; NULL on failure, `block` intact.
  void* resize(void* block, std::size_t old_bytes, std::size_t new_bytes) {
    const std::size_t new_class = class_of(new_bytes);
    if (block == nullptr) return new_class < kClasses ? take(new_class) : std::malloc(new_bytes);
    const std::size_t old_class = class_of(old_bytes);
    if (old_class >= kClasses && new_class >= kClasses) return std::realloc(block, new_bytes);
    if (old_class == new_class) return block;  // the block already has room for new_bytes
    return move(block, old_bytes, new_bytes);
  }
  void release(void* block, std::size_t bytes) {
    const std::size_t size_class = class_of(bytes);
    const std::size_t class_bytes = (size_class + 1) * kGranuleBytes;
    if (size_class >= kClasses || kept_bytes_ + class_bytes > kKeptBytesLimit) {
      std::free(block);
      return;
    }
    free_[size_class] = new (block) FreeBlock{free_[size_class]};
    kept_bytes_ += class_bytes;
  }

 private:
  static constexpr std::size_t kGranuleBytes = 16;  // keeps malloc's alignment
  static constexpr std::size_t kClasses = 16;       // blocks up to 256 bytes are pooled
  // Free blocks kept at most: a collection cycle of a sandbox frees about its live size (~100 KiB), and a
  // script that built much more gives the rest back to malloc.
  static constexpr std::size_t kKeptBytesLimit = 1u << 20;

  static std::size_t class_of(std::size_t bytes) { return (bytes + kGranuleBytes - 1) / kGranuleBytes - 1; }
  // Inline: every allocation of the state comes through here.
  void* take(std::size_t size_class) {
    if (FreeBlock* block = free_[size_class]) {
      free_[size_class] = block->next;
      kept_bytes_ -= (size_class + 1) * kGranuleBytes;
      return block;
    }
    return std::malloc((size_class + 1) * kGranuleBytes);
  }
  // A block to another class: a new one, the first bytes copied, the old one released.
  void* move(void* block, std::size_t old_bytes, std::size_t new_bytes);

  struct FreeBlock {
    FreeBlock* next;
  };
  std::array<FreeBlock*, kClasses> free_{};
  std::size_t kept_bytes_ = 0;
};

}  // namespace lockcheck::mock
