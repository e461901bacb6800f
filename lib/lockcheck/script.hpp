#pragma once
// Lua scripts sent by EVALSHA, with EVAL as the fallback when the server answers NOSCRIPT.
// Security: a Script is built only from the embedded lib/scripts/*.lua constants (or, for the `script`
// variant, the user's own files), never from keys, tokens or other data: those travel in KEYS/ARGV only,
// so no input can change the code Redis runs.
#include <string>
#include <string_view>
#include <vector>

#include "lockcheck/port.hpp"

namespace lockcheck {

class Script {
 public:
  explicit Script(std::string_view source);
  std::string_view source() const { return source_; }
  const std::string& sha() const { return sha_; }

 private:
  std::string source_;
  std::string sha_;
};

// EVALSHA on `node`; on NOSCRIPT (cache flushed, server restarted, failover) one EVAL, which also caches it.
Task<CallResult> eval(Port& port, std::size_t node, const Script& script, std::vector<std::string> keys,
                      std::vector<std::string> args);

// EVAL with the script's source: one round trip whatever the node's script cache holds, for a caller that
// cannot await a NOSCRIPT and its retry (a fan-out that stops awaiting early).
Command eval_source_command(const Script& script, const std::vector<std::string>& keys,
                            const std::vector<std::string>& args);

// The same script on every node of `nodes`, concurrently (about one round trip), with the NOSCRIPT fallback.
// With `decided`, the first round stops awaiting replies once it holds (Port::fan_out_until; the rest come
// back unknown, kNotAwaited). `decided` never sees a NOSCRIPT reply: that node's EVAL retry is still to come.
Task<std::vector<CallResult>> eval_on(Port& port, const std::vector<std::size_t>& nodes, const Script& script,
                                      const std::vector<std::string>& keys, const std::vector<std::string>& args,
                                      DecidedPredicate decided = nullptr);

}  // namespace lockcheck
