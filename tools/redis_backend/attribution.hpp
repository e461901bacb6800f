#pragma once
// Who changed which lock key, and what the key held after: server facts from one real redis-server, as
// `server` history lines (sim/README.md), from facts only.
//
// The node observer (node_observer.hpp) reads one connection that is both in MONITOR mode and subscribed to
// keyevent notifications, so Redis writes both into one stream in execution order: a command's
// notifications, then its MONITOR line; a script's EVAL / EVALSHA line, then for each command the script ran
// its notifications and its `[0 lua]` line. Each notification is therefore caused by the command on the
// next line, and a script's commands belong to the connection whose EVAL line came before them. Every
// worker names its connections (CLIENT SETNAME lockcheck-p<process>-<incarnation>); the SETNAME line in the
// same stream maps the connection's address to the process from then on. Expiry and eviction notifications
// are the server's own (by -1).
//
// What the key held after a command or script: derived from the command's arguments (SET's value, INCR's
// count, HSET's field names, PEXPIRE's milliseconds on the node clock of the MONITOR line) and, where a state read follows
// the key's last change (a MULTI read whose PUBLISHed marker sits in the same stream), taken from the read
// exactly, which also checks the derivation. A change that cannot be derived (a command outside the model,
// RENAME, ...) and is not followed by a read, a derivation the read contradicts, and a change whose client has
// no lockcheck name are counted with their reason, so the run reports the server-level properties as unknown
// instead of guessing.
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "monitor_line.hpp"
#include "record_sink.hpp"

namespace lockcheck::redis_backend {

// The name a worker gives its connections, and the process such a name names (nullopt for other names).
std::string worker_client_name(int process, std::uint64_t incarnation);
std::optional<std::int64_t> process_of_client_name(std::string_view name);
// The observer's own connections.
inline constexpr const char* kObserverClientName = "lockcheck-observer";

struct KeyState {
  bool present = false;
  std::string value;                // "" when not a string (a hash lock)
  std::vector<std::string> fields;  // a hash lock's field names (holds), else empty
  std::int64_t expire_at_ms = -1;
};

// A state read of every lock key, done atomically at one point of the node's stream.
struct StateRead {
  std::map<std::string, KeyState> state;
  std::int64_t node_ms = 0;  // the node's clock (TIME) at the read
};

// What kept server facts from being judged, by reason (reason -> how many events).
struct Gaps {
  std::int64_t unobserved = 0;    // events whose state is unknown
  std::int64_t unattributed = 0;  // events whose client is unknown
  std::map<std::string, std::int64_t> reasons;
  void add(const Gaps& other);
};

// A server line's `t` is when the observer read its notification, or earlier when its MONITOR line's stamp
// says the node ran it earlier (WhenRan): often after the worker that caused it
// recorded the reply, while the change itself came before that reply. With one master (a worker's commands
// then go over one connection at a time, each answered before the next), each line whose process is known is
// moved back to the latest time its command can have run: it ran before `t`, inside one of the process's ops
// invoked before `t`, so no later than the latest completion among them (ok or fail: every command of the op
// was answered). An op that completed `info` (a command may still run after the timeout) or never completed
// bounds nothing. (`since_us` is not used: the observer may see its socket empty after the command ran, while
// Redis has not yet written the notification.) Then each node's lines are kept in stream order (no line
// later than the next), which moves only lines that ran earlier still. `records`: the run's own records
// (server lines per node in stream order) and the workers' op records.
// `commands_outside_ops`: an external lock client (lockcheck judge), whose library may send commands between
// the ops the judge sees (a background refresh timer). A line read more than kObserverLagUs after the end of
// the process's latest op is such a command and keeps the time the observer read it.
inline constexpr std::int64_t kObserverLagUs = 50000;
void place_server_events(std::vector<Record>& records, bool commands_outside_ops = false);

class NodeAttribution {
 public:
  // Asked for an address that no SETNAME line named (a connection made before the stream began): its
  // name as the server knows it now (CLIENT LIST), or nullopt.
  using NameLookup = std::function<std::optional<std::string>(const std::string& address)>;
  // The run's time (TimeBase microseconds) at which the node's wall clock read `node_wall_us`, no earlier than
  // `not_before_us` (the stamp before it in the stream), or nullopt when that cannot be told. A command's
  // MONITOR line carries the node's clock when it ran, so a line the observer reads late (its thread was
  // starved: every line of a backlog arrives at once) still goes where it happened, not where it was read.
  using WhenRan = std::function<std::optional<std::int64_t>(std::int64_t node_wall_us, std::int64_t not_before_us)>;

  // `initial` is the state read that starts the stream (nothing before it is recorded).
  NodeAttribution(int node, std::set<std::string> keys, std::map<std::string, KeyState> initial, RecordSink& sink,
                  NameLookup lookup = {}, WhenRan when_ran = {});

  // The stream, in order. `t_us` is when the notification was read; `since_us` a time it certainly came after.
  void notification(std::int64_t t_us, std::int64_t since_us, const std::string& event, const std::string& key);
  void command(const MonitorLine& line);
  void state_read(const StateRead& read);
  // The stream ended (the node went away, or the run is over): records what is known, counts the rest.
  void finish();

  // Every key's state after the last change seen (derived, or read).
  std::map<std::string, KeyState> state() const;
  const Gaps& gaps() const { return gaps_; }

 private:
  struct Note {
    std::int64_t t_us = 0;
    std::int64_t since_us = 0;
    std::string event;
    std::string key;
  };
  struct Change {
    Note note;
    int line = -1;  // the command that caused it (an index into Unit::lines); -1: no command line followed it
  };
  // One atomic step of the node: a command, or a script with the commands it ran.
  struct Unit {
    std::string source;  // the caller's address; "" when unknown
    std::string script;  // the script's sha (a function's name) when a script
    std::vector<MonitorLine> lines;
    std::vector<Change> changes;
  };
  // A key's state as derived, and whether its value, fields and deadline are known (presence always is).
  struct Derived {
    KeyState state;
    bool known = true;
  };
  // A server line waiting for the state after its unit.
  struct Pending {
    std::int64_t t_us = 0;
    std::int64_t since_us = 0;
    std::int64_t line_ms = 0;  // the node clock of its command's MONITOR line
    // When `t_us` is the line's stamp: the node's clock then, rounded up (a TTL counted from `t_us` then never
    // ends later than the node's); else -1, and the clock comes from the read after it.
    std::int64_t stamp_node_ms = -1;
    bool removal = false;      // deleted, expired, evicted: the record's value and deadline are fixed already
    Json fields;
  };
  // A closed unit's lines, waiting for the read that may tell the state after it.
  struct Closed {
    std::vector<Pending> records;
    std::map<std::string, Derived> after;  // the keys it changed
  };

  void attach_notes(Unit& unit, int line);
  void close_unit();
  void flush(const StateRead* read);
  std::int64_t by_of(const Unit& unit, const Change& change);
  void count(std::int64_t Gaps::*counter, const std::string& reason, std::int64_t n = 1);

  int node_;
  std::set<std::string> keys_;
  RecordSink& sink_;
  NameLookup lookup_;
  WhenRan when_ran_;
  std::map<std::string, Derived> state_;      // after the last closed unit (derived, or read)
  std::vector<Note> notes_;                   // notifications whose command line has not come yet
  std::optional<Unit> unit_;                  // open until the next line that is not the script's
  std::vector<Closed> closed_;                // units since the last read
  std::map<std::string, std::string> names_;  // address -> client name
  std::int64_t last_line_ms_ = 0;
  std::int64_t last_ran_us_ = std::numeric_limits<std::int64_t>::min();  // the last stamp placed by WhenRan
  Gaps gaps_;
};

}  // namespace lockcheck::redis_backend
