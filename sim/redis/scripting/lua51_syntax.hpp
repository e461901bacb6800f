#pragma once
// Redis runs scripts on Lua 5.1; the mock embeds Lua 5.4. A script using syntax that only 5.2+ has would
// pass in the mock and fail on every real server, so the mock rejects it at load time, naming the construct.
#include <optional>
#include <string>
#include <string_view>

namespace lockcheck::mock {

struct SyntaxIssue {
  int line = 1;
  std::string message;  // e.g. "integer division operator '//' is Lua 5.3+ syntax; Redis runs Lua 5.1"
};

// Scans tokens (skipping strings, long strings and comments) for 5.2+ constructs: '//', '&', '|', '~'
// (not '~='), '<<', '>>', 'goto', '::label::', '<const>' / '<close>' attributes, and the string escapes
// '\x', '\z', '\u{}' that 5.1 reads differently.
std::optional<SyntaxIssue> find_lua54_only_syntax(std::string_view source);

// At a '[' at `pos`: the level n of a long bracket "[" "="*n "[", or -1 when this is not one.
int long_bracket_level(std::string_view source, std::size_t pos);
// The position just past the long bracket (string or comment) opening at `pos`, or source.size().
std::size_t long_bracket_end(std::string_view source, std::size_t pos);

}  // namespace lockcheck::mock
