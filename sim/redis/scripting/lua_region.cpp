#include "redis/scripting/lua_region.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <utility>

namespace lockcheck::mock {
namespace {

constexpr std::size_t kSmallestLimitBytes = 16u << 20;
constexpr std::size_t kLargestLimitBytes = 1u << 30;
constexpr std::size_t kReservePerLimitByte = 64;
constexpr std::size_t kKeptRegionsPerThread = 32;  // more than the nodes of any simulated topology

// This thread's regions waiting for a state. `open` turns false when the thread's storage is torn down, after
// which a region given back is unmapped instead (a state that outlives its thread's list).
struct FreeRegions {
  std::vector<std::unique_ptr<LuaRegion>> regions;
  bool open = true;
  ~FreeRegions() {
    open = false;
    regions.clear();
  }
};
thread_local FreeRegions free_regions;

}  // namespace

std::unique_ptr<LuaRegion> LuaRegion::take(std::size_t memory_limit_bytes) {
  if (memory_limit_bytes < kSmallestLimitBytes || memory_limit_bytes > kLargestLimitBytes) return nullptr;
  if (free_regions.open) {
    auto& regions = free_regions.regions;
    for (auto it = regions.rbegin(); it != regions.rend(); ++it) {
      if ((*it)->memory_limit_bytes_ != memory_limit_bytes) continue;
      std::unique_ptr<LuaRegion> region = std::move(*it);
      regions.erase(std::next(it).base());
      return region;
    }
  }
  const std::size_t reserved = memory_limit_bytes * kReservePerLimitByte;
  void* base = mmap(nullptr, reserved, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED) return nullptr;
  return std::unique_ptr<LuaRegion>(new LuaRegion(static_cast<char*>(base), reserved, memory_limit_bytes));
}

void LuaRegion::give_back(std::unique_ptr<LuaRegion> region) {
  if (!free_regions.open || free_regions.regions.size() >= kKeptRegionsPerThread) return;  // unmapped here
  free_regions.regions.push_back(std::move(region));
}

LuaRegion::LuaRegion(char* base, std::size_t reserved_bytes, std::size_t memory_limit_bytes)
    : base_(base), reserved_bytes_(reserved_bytes), memory_limit_bytes_(memory_limit_bytes), committed_end_(base) {
  blocks_.top = base_;
}

LuaRegion::~LuaRegion() { munmap(base_, reserved_bytes_); }

bool LuaRegion::commit_to(char* end) {
  if (end <= committed_end_) return true;
  if (end > base_ + reserved_bytes_) return false;
  const std::size_t wanted = static_cast<std::size_t>(end - committed_end_);
  std::size_t step = std::max(kCommitStepBytes, (wanted + kCommitStepBytes - 1) / kCommitStepBytes * kCommitStepBytes);
  step = std::min(step, static_cast<std::size_t>(base_ + reserved_bytes_ - committed_end_));
  if (mprotect(committed_end_, step, PROT_READ | PROT_WRITE) != 0) return false;
  committed_end_ += step;
  return true;
}

void* LuaRegion::take_new_block(std::size_t size_class) {
  if (size_class >= kClasses) return nullptr;
  const std::size_t bytes = class_bytes(size_class);
  if (static_cast<std::size_t>(base_ + reserved_bytes_ - blocks_.top) < bytes) return nullptr;
  if (!commit_to(blocks_.top + bytes)) return nullptr;
  return std::exchange(blocks_.top, blocks_.top + bytes);
}

void* LuaRegion::move(void* block, std::size_t old_bytes, std::size_t new_bytes) {
  void* moved = take_block(class_of(new_bytes));
  if (moved == nullptr) return nullptr;
  std::memcpy(moved, block, std::min(old_bytes, new_bytes));
  release(block, old_bytes);
  return moved;
}

void LuaRegion::keep_template(const Owner& owner) {
  template_bytes_.assign(base_, blocks_.top);
  template_blocks_ = blocks_;
  template_owner_ = owner;
}

const LuaRegion::Owner& LuaRegion::restore_template() {
  std::memcpy(base_, template_bytes_.data(), template_bytes_.size());
  blocks_ = template_blocks_;
  return template_owner_;
}

}  // namespace lockcheck::mock
