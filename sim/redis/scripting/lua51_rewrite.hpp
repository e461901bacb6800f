#pragma once
// Lua 5.1 holds every number as a double and prints it with "%.14g"; Lua 5.4 has integers that wrap at
// 2^63 and prints integral floats as "5.0". Before compiling, the mock rewrites a script so 5.4 computes
// and prints as 5.1 does:
// - every numeral becomes a float literal ("10" -> "10.0", "0xff" -> "255.0"), so arithmetic is IEEE
//   double arithmetic as in 5.1 (no wrap-around, "n % 0" is nan, 2^53 + 1 rounds);
// - every operand of ".." that is not a string literal is passed through kConcatOperand, which turns a
//   number into 5.1's "%.14g" text ("5" for 10/2, "1e+15" for 10^15);
// - every "a % b" becomes a call of kModulo, 5.1's a - floor(a/b)*b;
// - a vararg function whose body does not use `...` gets 5.1's `local arg = {n = select('#', ...), ...}`.
// Line numbers are kept: text is only inserted within a line.
#include <string>
#include <string_view>

namespace lockcheck::mock {

// The globals the rewritten script calls (C functions in lua51_lib.cpp): for each ".." operand, and for
// each "a % b", which 5.1 computes as a - floor(a/b)*b (5.4's fmod differs: -4 % 2 is -0, 5 % inf is 5).
inline constexpr std::string_view kConcatOperand = "__lua51_concat_operand";
inline constexpr std::string_view kModulo = "__lua51_modulo";
// Builds a vararg function's `arg` table (set by the prelude, lua_prelude.cpp).
inline constexpr std::string_view kVarargTable = "__lua51_vararg_table";

// Returns the rewritten source. `source` must be free of 5.2+ syntax (find_lua54_only_syntax).
std::string rewrite_for_lua51_numbers(std::string_view source);

}  // namespace lockcheck::mock
