#pragma once
// `--client "python3 adapter.py --flag 'a b'"` into words, as a POSIX shell splits a simple command line:
// blanks separate words; '...' is literal; "..." keeps blanks and takes \" and \\; a backslash outside
// quotes escapes the next character. No expansion of any kind: the words are exec'd as they are.
#include <string>
#include <string_view>
#include <vector>

namespace lockcheck::command_line {

// Throws std::invalid_argument on an unterminated quote or a trailing backslash.
std::vector<std::string> split_command(std::string_view line);

}  // namespace lockcheck::command_line
