#pragma once
// Redis 7.0 error texts, verbatim (checked against redis-server 7.0.15).
#include <string>
#include <string_view>

#include "lockcheck/reply.hpp"

namespace lockcheck::mock::err {

inline constexpr std::string_view kWrongType = "WRONGTYPE Operation against a key holding the wrong kind of value";
inline constexpr std::string_view kNotInteger = "ERR value is not an integer or out of range";
inline constexpr std::string_view kNotFloat = "ERR value is not a valid float";
inline constexpr std::string_view kOverflow = "ERR increment or decrement would overflow";
inline constexpr std::string_view kSyntax = "ERR syntax error";
inline constexpr std::string_view kNoScript = "NOSCRIPT No matching script. Please use EVAL.";
inline constexpr std::string_view kOom = "OOM command not allowed when used memory > 'maxmemory'.";

inline constexpr std::string_view kReadonlyReplica = "READONLY You can't write against a read only replica.";
inline constexpr std::string_view kNoReplicas = "NOREPLICAS Not enough good replicas to write.";
// What other clients get while a script (EVAL) or a function (FCALL) is past busy-reply-threshold.
inline constexpr std::string_view kBusyEval =
    "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.";
inline constexpr std::string_view kBusyFunction =
    "BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN NOSAVE.";

inline Reply reply(std::string_view text) { return Reply::error(std::string(text)); }
inline Reply wrong_type() { return reply(kWrongType); }
inline Reply not_integer() { return reply(kNotInteger); }
inline Reply syntax() { return reply(kSyntax); }
inline Reply arity(std::string_view name) {
  return Reply::error("ERR wrong number of arguments for '" + std::string(name) + "' command");
}

// "ERR unknown command 'foo', with args beginning with: 'a' 'b' " as Redis (and Sentinel) print it.
Reply unknown_command(const Command& command);

}  // namespace lockcheck::mock::err
