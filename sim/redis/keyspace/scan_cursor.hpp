#pragma once
// SCAN's cursor for the mock's ordered containers: names are visited in the order of a fixed 63-bit hash
// of the name, and the cursor is the next hash value to visit. So a cursor is deterministic (the same on
// every run and machine) and complete: a name present from the first call to the last is returned at
// least once, whatever is added or removed in between (as Redis guarantees); cursor 0 starts and ends.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace lockcheck::mock {

struct ScanPage {
  std::uint64_t next_cursor = 0;  // 0 when the iteration is complete
  std::vector<std::string_view> names;
};

// The next page after `cursor`: at least `count` names (fewer at the end; more only when names share a
// hash, which a page never splits).
ScanPage scan_page(const std::vector<std::string_view>& names, std::uint64_t cursor, std::size_t count);

// parseScanCursorOrReply: strtoul over the whole text, no leading space, no overflow.
std::optional<std::uint64_t> parse_scan_cursor(std::string_view text);

}  // namespace lockcheck::mock
