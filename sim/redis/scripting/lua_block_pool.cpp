#include "redis/scripting/lua_block_pool.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

namespace lockcheck::mock {

LuaBlockPool::~LuaBlockPool() {
  for (FreeBlock*& head : free_) {
    // Bounded by the blocks kept (kKeptBytesLimit).
    while (head != nullptr) std::free(std::exchange(head, head->next));
  }
}

void* LuaBlockPool::move(void* block, std::size_t old_bytes, std::size_t new_bytes) {
  const std::size_t new_class = class_of(new_bytes);
  void* moved = new_class < kClasses ? take(new_class) : std::malloc(new_bytes);
  if (moved == nullptr) return nullptr;
  std::memcpy(moved, block, std::min(old_bytes, new_bytes));
  release(block, old_bytes);
  return moved;
}

}  // namespace lockcheck::mock
