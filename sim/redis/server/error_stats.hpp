#pragma once
// INFO errorstats and commandstats' rejected_calls/failed_calls, counted where redis-server 7.0.15 counts them:
// every error reply a client (or a script's redis.call) receives, once, under its code — the first word of the
// error when it ends within 32 bytes of the reply, else ERR. CONFIG RESETSTAT clears them. (7.0.15 has no cap on
// the number of codes; the 128-code cap came with 7.2.)
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace lockcheck::mock {

struct ErrorStats {
  std::map<std::string, std::int64_t, std::less<>> by_code;  // byte order, as Redis's rax lists them
  std::int64_t total_replies = 0;                            // INFO stats total_error_replies

  void count(std::string_view error_text) {
    ++total_replies;
    // Redis looks for the space within the first 32 bytes of "-CODE message".
    const std::size_t space = error_text.substr(0, 31).find(' ');
    const std::string_view code = space == std::string_view::npos ? std::string_view("ERR") : error_text.substr(0, space);
    auto it = by_code.find(code);
    if (it == by_code.end()) it = by_code.emplace(std::string(code), 0).first;
    ++it->second;
  }
};

// Per command, indexed like all_commands(): runs, refusals before running (rejected_calls: arity, OOM, NOAUTH, a
// script's checks) and runs that answered an error (failed_calls).
struct CommandCounters {
  std::vector<std::int64_t> calls, rejected, failed;
  explicit CommandCounters(std::size_t commands = 0) : calls(commands, 0), rejected(commands, 0), failed(commands, 0) {}
};

}  // namespace lockcheck::mock
