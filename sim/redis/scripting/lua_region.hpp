#pragma once
// A Lua state's memory in one reserved address range of its own, so that a state made once can be put back
// byte for byte: the sandbox's setup (the base libraries, redis.*, cjson, cmsgpack, struct, the 5.1 layer and
// the prelude) runs once per region, and every later state made in that region starts from a copy of its
// bytes taken right after the setup (its template). Every simulated run makes a state per node that runs a
// script; the setup and the closing of those states were a tenth of a short explore run.
//
// A state put back is the state the setup made, to the byte: its objects, its collector's debt and phase, the
// figures Lua counts (what memory_used_bytes reports), its string hash seed. Nothing of an earlier state made
// in the region survives: the copy covers everything up to the template's top, and what an earlier state
// allocated above that is unreachable garbage that the next allocations overwrite. A region is used by one
// state at a time; the regions a thread's states gave back wait for that thread's next states.
//
// Sizes are the ones Lua asks for (kept in Lua's own accounting); only where blocks live changes: blocks of
// up to 256 bytes in 16-byte classes, larger ones in power-of-two classes, each class with its free list.
// The range is reserved without memory and made usable as the state grows; it is 64 times the state's limit,
// so it outlasts the worst fragmentation the classes allow (each class holds at most twice its peak of live
// bytes, and there are fewer than 32 classes).
#include <array>
#include <bit>
#include <cstddef>
#include <memory>
#include <new>
#include <vector>

struct lua_State;

namespace lockcheck::mock {

class LuaRegion {
 public:
  // What the state's owner keeps beside the bytes: put back with them.
  struct Owner {
    lua_State* state = nullptr;
    std::size_t memory_used_bytes = 0;
    int env_ref = 0;
    int function_env_ref = 0;
    int function_scope_ref = 0;
  };

  // A region for a state limited to `memory_limit_bytes`: one this thread gave back for the same limit, else a
  // new one; nullptr when the limit is outside what regions serve (below 16 MiB, where a setup that does not
  // fit must fail as it always did, or above 1 GiB) or no range could be reserved: the caller allocates as
  // before.
  static std::unique_ptr<LuaRegion> take(std::size_t memory_limit_bytes);
  // Hands the region to this thread's next state (its contents are dead: the state is not closed).
  static void give_back(std::unique_ptr<LuaRegion> region);

  ~LuaRegion();
  LuaRegion(const LuaRegion&) = delete;
  LuaRegion& operator=(const LuaRegion&) = delete;

  // lua_Alloc's contract for a size that is not 0: `block` of `old_bytes` (nullptr for a new block) becomes
  // one of `new_bytes`, its first bytes kept; nullptr when the range is used up, `block` intact.
  // Inline: every allocation of the state comes through here.
  void* resize(void* block, std::size_t old_bytes, std::size_t new_bytes) {
    const std::size_t new_class = class_of(new_bytes);
    if (block == nullptr) return take_block(new_class);
    if (class_of(old_bytes) == new_class) return block;  // the block already has room for new_bytes
    return move(block, old_bytes, new_bytes);
  }
  void release(void* block, std::size_t bytes) {
    const std::size_t size_class = class_of(bytes);
    blocks_.free[size_class] = new (block) FreeBlock{blocks_.free[size_class]};
  }

  bool has_template() const { return !template_bytes_.empty(); }
  // Keeps the region's contents as they are now (a state just set up) with its owner's figures.
  void keep_template(const Owner& owner);
  // Puts the template's contents back; returns its owner's figures.
  const Owner& restore_template();
  std::size_t memory_limit_bytes() const { return memory_limit_bytes_; }

 private:
  static constexpr std::size_t kSmallClasses = 16;  // 16, 32, ..., 256 bytes
  static constexpr std::size_t kClasses = 48;       // then 512, 1 KiB, ... (2^9 .. 2^40)
  static constexpr std::size_t kCommitStepBytes = 1u << 20;

  LuaRegion(char* base, std::size_t reserved_bytes, std::size_t memory_limit_bytes);
  static std::size_t class_of(std::size_t bytes) {
    if (bytes <= kSmallClasses * 16) return (bytes + 15) / 16 - 1;
    return kSmallClasses + static_cast<std::size_t>(std::bit_width(bytes - 1)) - 9;  // 257..512 -> 16, ...
  }
  static std::size_t class_bytes(std::size_t size_class) {
    if (size_class < kSmallClasses) return (size_class + 1) * 16;
    return std::size_t{1} << (size_class - kSmallClasses + 9);
  }
  void* take_block(std::size_t size_class) {
    if (size_class < kClasses) {
      if (FreeBlock* block = blocks_.free[size_class]) {
        blocks_.free[size_class] = block->next;
        return block;
      }
    }
    return take_new_block(size_class);
  }
  void* take_new_block(std::size_t size_class);  // cut at the top
  // A block to another class: a new one, the first bytes copied, the old one released.
  void* move(void* block, std::size_t old_bytes, std::size_t new_bytes);
  bool commit_to(char* end);

  struct FreeBlock {
    FreeBlock* next;
  };
  // The allocator's state: what a template keeps besides the bytes below `top`.
  struct Blocks {
    char* top = nullptr;  // the next block is cut here
    std::array<FreeBlock*, kClasses> free{};
  };

  char* base_;
  std::size_t reserved_bytes_;
  std::size_t memory_limit_bytes_;
  char* committed_end_;  // [base_, committed_end_) is readable and writable
  Blocks blocks_;
  std::vector<char> template_bytes_;  // [base_, template_blocks_.top) as the setup left it
  Blocks template_blocks_;
  Owner template_owner_;
};

}  // namespace lockcheck::mock
