#pragma once
// One line of a redis-server's MONITOR output (Redis 7.0):
//
//   1795458556.451153 [0 127.0.0.1:49036] "EVAL" "redis.call('SET',KEYS[1],ARGV[1])" "1" "lock" "9f.."
//   1795458556.451253 [0 lua] "SET" "lock" "9f.."
//
// `<unix seconds>.<microseconds>` is the node's wall clock (gettimeofday, so the clock shim's offset is in
// it) when the line was written: right after the command ran, except for EVAL / EVALSHA / FCALL, whose line is
// written before the script runs. The bracket names the database and the connection (`ip:port`, `unix:path`),
// or `lua` for a command a script ran; such lines follow the line of the script's own call. Arguments are
// quoted as Redis's sdscatrepr quotes them: \" \\ \n \r \t \a \b and \xHH for other non-printable bytes.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lockcheck::redis_backend {

struct MonitorLine {
  std::int64_t unix_us = 0;  // the node's wall clock, microseconds
  int db = 0;
  std::string source;  // "127.0.0.1:49036", "unix:/tmp/redis.sock", or "lua"
  std::vector<std::string> argv;  // unquoted, byte for byte as the client sent them

  bool from_script() const { return source == "lua"; }
  // argv[0] in upper case ("" when there is none).
  std::string name() const;
};

// The line, or nullopt when `text` is not a MONITOR line (MONITOR's own "OK", a malformed line).
std::optional<MonitorLine> parse_monitor_line(std::string_view text);

}  // namespace lockcheck::redis_backend
