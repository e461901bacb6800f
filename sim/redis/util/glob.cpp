#include "redis/util/glob.hpp"

#include <utility>

#include "redis/util/text.hpp"

namespace lockcheck::mock {
namespace {

bool same_char(char a, char b, bool nocase) { return nocase ? ascii_lower(a) == ascii_lower(b) : a == b; }

// One [...] class at pattern[p] (just past '['); sets p past the closing ']'.
bool class_matches(std::string_view pattern, std::size_t& p, char c, bool nocase) {
  bool negate = p < pattern.size() && pattern[p] == '^';
  if (negate) ++p;
  bool matched = false;
  // Each iteration consumes at least one pattern character.
  while (p < pattern.size() && pattern[p] != ']') {
    if (pattern[p] == '\\' && p + 1 < pattern.size()) {
      ++p;
      matched |= same_char(pattern[p], c, nocase);
      ++p;
    } else if (p + 2 < pattern.size() && pattern[p + 1] == '-') {
      char low = pattern[p], high = pattern[p + 2];
      if (low > high) std::swap(low, high);
      char folded = nocase ? ascii_lower(c) : c;
      if (nocase) {
        low = ascii_lower(low);
        high = ascii_lower(high);
      }
      matched |= folded >= low && folded <= high;
      p += 3;
    } else {
      matched |= same_char(pattern[p], c, nocase);
      ++p;
    }
  }
  if (p < pattern.size()) ++p;  // the ']'
  return negate ? !matched : matched;
}

}  // namespace

bool glob_match(std::string_view pattern, std::string_view text, bool nocase) {
  // Iterative with one backtrack point for the last '*': linear-ish and bounded by |pattern| * |text|.
  std::size_t p = 0, t = 0;
  std::size_t star_p = std::string_view::npos, star_t = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      while (p < pattern.size() && pattern[p] == '*') ++p;
      if (p == pattern.size()) return true;
      star_p = p;
      star_t = t;
      continue;
    }
    std::size_t next = p;
    bool ok = false;
    if (p < pattern.size()) {
      if (pattern[p] == '?') {
        ok = true;
        next = p + 1;
      } else if (pattern[p] == '[') {
        next = p + 1;
        ok = class_matches(pattern, next, text[t], nocase);
      } else if (pattern[p] == '\\' && p + 1 < pattern.size()) {
        ok = same_char(pattern[p + 1], text[t], nocase);
        next = p + 2;
      } else {
        ok = same_char(pattern[p], text[t], nocase);
        next = p + 1;
      }
    }
    if (ok) {
      p = next;
      ++t;
    } else if (star_p != std::string_view::npos) {
      p = star_p;
      t = ++star_t;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

}  // namespace lockcheck::mock
