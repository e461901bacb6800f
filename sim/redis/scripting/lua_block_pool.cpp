#include "redis/scripting/lua_block_pool.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

namespace lockcheck::mock {

LuaBlockPool::~LuaBlockPool() {
  for (FreeBlock*& head : free_) {
    // Bounded by the blocks kept (kKeptBytesLimit).
    while (head != nullptr) std::free(std::exchange(head, head->next));
  }
}

void* LuaBlockPool::take(std::size_t size_class) {
  if (FreeBlock* block = free_[size_class]) {
    free_[size_class] = block->next;
    kept_bytes_ -= (size_class + 1) * kGranuleBytes;
    return block;
  }
  return std::malloc((size_class + 1) * kGranuleBytes);
}

void* LuaBlockPool::resize(void* block, std::size_t old_bytes, std::size_t new_bytes) {
  const std::size_t new_class = class_of(new_bytes);
  if (block == nullptr) return new_class < kClasses ? take(new_class) : std::malloc(new_bytes);
  const std::size_t old_class = class_of(old_bytes);
  if (old_class >= kClasses && new_class >= kClasses) return std::realloc(block, new_bytes);
  if (old_class == new_class) return block;  // the block already has room for new_bytes
  void* moved = new_class < kClasses ? take(new_class) : std::malloc(new_bytes);
  if (moved == nullptr) return nullptr;
  std::memcpy(moved, block, std::min(old_bytes, new_bytes));
  release(block, old_bytes);
  return moved;
}

void LuaBlockPool::release(void* block, std::size_t bytes) {
  const std::size_t size_class = class_of(bytes);
  const std::size_t class_bytes = (size_class + 1) * kGranuleBytes;
  if (size_class >= kClasses || kept_bytes_ + class_bytes > kKeptBytesLimit) {
    std::free(block);
    return;
  }
  free_[size_class] = new (block) FreeBlock{free_[size_class]};
  kept_bytes_ += class_bytes;
}

}  // namespace lockcheck::mock
