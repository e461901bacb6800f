#pragma once
// MONITOR as Redis 7.0.15 does it (replicationFeedMonitors, call(), evalCommand, execCommandAbort): which
// commands a monitoring client is shown, the status line it gets for each, which passwords are redacted,
// and which commands a monitoring connection may no longer run. The node feeds the lines (node_monitor.cpp).
#include <cstdint>
#include <string>
#include <string_view>

#include "lockcheck/reply.hpp"

namespace lockcheck::mock {

// Redis's sdscatrepr: `text` in double quotes, with \\ \" \n \r \t \a \b escaped and any other byte outside
// 0x20-0x7e as \xNN.
void append_repr(std::string& out, std::string_view text);

// The status text (without '+' and CRLF) replicationFeedMonitors writes: `<s>.<us> [<db> <source>] "ARG" ...`,
// where `source` is the client's ip:port, or "lua" for a command a script ran.
std::string monitor_line(std::int64_t unix_us, int db, std::string_view source, const Command& args);

// Not shown by call(): CMD_ADMIN commands (CONFIG, CLIENT LIST/KILL, SHUTDOWN, MONITOR ...) and CMD_SKIP_MONITOR
// ones (EVAL*, FCALL*), which show themselves before they run (fed_before_running) so that the commands
// their script runs come after them.
bool hidden_from_monitors(const Command& args);
bool fed_before_running(const Command& args);

// The arguments as a monitor sees them: AUTH's and HELLO ... AUTH's credentials as "(redacted)", where and
// only where 7.0.15's handlers redact them (authCommand, helloCommand).
Command redacted_for_monitors(const Command& args);

// A monitoring connection is a replica to Redis (CLIENT_SLAVE): processCommand refuses it every command that
// reads, writes or may replicate ("Replica can't interact with the keyspace"). SUBSCRIBE, PING, CLIENT ... stay.
bool touches_keyspace(const Command& args);

}  // namespace lockcheck::mock
