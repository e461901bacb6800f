#pragma once
// The largest string Redis 7.0 lets a command build (proto-max-bulk-len, 512 MB by default) and the index
// window that GETRANGE, BITCOUNT and BITPOS share.
#include <cstdint>

#include "redis/command_table/errors.hpp"

namespace lockcheck::mock {

inline constexpr std::int64_t kProtoMaxBulkLen = 512LL * 1024 * 1024;

// checkStringLength: a string of offset + append bytes would be too long (or the sum overflows).
inline bool exceeds_max_string(std::int64_t offset, std::int64_t append) {
  return offset > kProtoMaxBulkLen || append > kProtoMaxBulkLen - offset;
}
inline Reply string_too_long() {
  return Reply::error("ERR string exceeds maximum allowed size (proto-max-bulk-len)");
}

// start/end (negative counts from the end) clamped to [0, length-1] as Redis does it; empty when start > end.
struct IndexWindow {
  std::int64_t start = 0, end = -1;
  bool empty() const { return start > end; }
};
inline IndexWindow clamp_window(std::int64_t start, std::int64_t end, std::int64_t length) {
  if (start < 0) start += length;
  if (end < 0) end += length;
  if (start < 0) start = 0;
  if (end < 0) end = 0;
  if (end >= length) end = length - 1;
  return {start, end};
}

}  // namespace lockcheck::mock
