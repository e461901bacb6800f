#pragma once
// Server-side facts for the simulator's history: who created, changed or removed which key, and why a key
// vanished (deleted by a client, expired on the node clock, evicted). Checkers cite these as causes.
#include <cstdint>
#include <string_view>

namespace lockcheck::mock {

enum class KeyEventKind : std::uint8_t {
  created,         // a key that did not exist now exists
  overwritten,     // SET replaced the whole value of an existing key
  modified,        // in-place change of an existing key (INCR, HSET, LPUSH, ...)
  expire_set,      // the key's deadline was set or changed (expire_at_ms holds it)
  expire_removed,  // PERSIST, or a plain SET that cleared the deadline
  deleted,         // removed by a command (DEL, GETDEL, last HDEL, EXPIRE in the past, ...)
  expired,         // removed because its deadline passed on the node clock (lazy or active)
  evicted,         // removed by the eviction policy
};

const char* to_string(KeyEventKind kind);

struct KeyEvent {
  KeyEventKind kind = KeyEventKind::created;
  std::string_view key;
  std::int64_t node_time_ms = 0;     // the node clock when it happened
  std::int64_t client_id = -1;       // -1 when the server itself did it (active expiry, eviction)
  std::string_view command;          // lower-case command doing it ("set", "del"); empty for the server
  std::string_view script_sha;       // set when the command ran inside a script
  std::int64_t expire_at_ms = 0;     // expire_set and expired: the deadline
  bool lazy = false;                 // expired: found on access (true) or by expire_some() (false)
  int db = 0;                        // the database (SELECT n) holding the key
};

// Default: ignore everything. The simulator overrides on_key_event. Callbacks must not call back into the
// node (the keyspace is mid-operation); record and return.
class Observer {
 public:
  virtual ~Observer() = default;
  virtual void on_key_event(const KeyEvent& /*event*/) {}
};

}  // namespace lockcheck::mock
