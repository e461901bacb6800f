#pragma once
// A script body as EVAL and SCRIPT LOAD receive it, made ready for a node's Lua state once per process: its
// shebang read, its Lua 5.4-only syntax refused, its numbers rewritten for Lua 5.1, and the result compiled to
// bytecode in a scratch state. Every node then loads the same bytecode (a binary chunk), whether this process
// prepared the body just now or long ago, so a node's state sees the same allocations either way and one seed
// still replays byte for byte. Parsing each script in each node of each run was a twentieth of explore's CPU.
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace lockcheck::mock {

struct PreparedScript {
  std::optional<std::string> refusal;  // the error reply's text when the body does not compile (or its shebang)
  bool shebang = false;                // a "#!lua" first line (blanked before compiling: line numbers stay)
  bool no_writes = false;
  bool allow_oom = false;
  std::string bytecode;  // lua_dump of the compiled chunk, named "@user_script" (empty with a refusal)
};

// Thread-safe. Bodies are kept (at most a few thousand; past that each is prepared afresh, not kept).
std::shared_ptr<const PreparedScript> prepared_script(std::string_view body);

// Redis's error text for a script that does not compile: this prefix, then where and why.
inline constexpr std::string_view kScriptCompileError = "ERR Error compiling script (new function): ";

}  // namespace lockcheck::mock
