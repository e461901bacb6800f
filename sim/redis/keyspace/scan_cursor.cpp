#include "redis/keyspace/scan_cursor.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <string>
#include <utility>

namespace lockcheck::mock {
namespace {

// FNV-1a, cut to 63 bits so that "last hash + 1" is never 0 (0 means "done").
std::uint64_t name_hash(std::string_view name) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : name) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return hash >> 1;
}

}  // namespace

ScanPage scan_page(const std::vector<std::string_view>& names, std::uint64_t cursor, std::size_t count) {
  std::vector<std::pair<std::uint64_t, std::string_view>> pending;
  pending.reserve(names.size());
  for (std::string_view name : names) {
    const std::uint64_t hash = name_hash(name);
    if (hash >= cursor) pending.emplace_back(hash, name);
  }
  std::sort(pending.begin(), pending.end());
  ScanPage page;
  std::size_t taken = 0;
  for (; taken < pending.size(); ++taken) {
    const bool full = taken >= count && pending[taken].first != pending[taken - 1].first;
    if (full) break;
    page.names.push_back(pending[taken].second);
  }
  if (taken < pending.size()) page.next_cursor = pending[taken - 1].first + 1;
  return page;
}

std::optional<std::uint64_t> parse_scan_cursor(std::string_view text) {
  if (!text.empty() && std::isspace(static_cast<unsigned char>(text[0]))) return std::nullopt;
  const std::string copy(text);  // strtoul needs a terminator
  char* end = nullptr;
  errno = 0;
  const unsigned long cursor = std::strtoul(copy.c_str(), &end, 10);
  if (*end != '\0' || errno == ERANGE) return std::nullopt;
  return static_cast<std::uint64_t>(cursor);
}

}  // namespace lockcheck::mock
