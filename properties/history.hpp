#pragma once
// A recorded history (sim/README.md, "History format", schema 1) as typed events.
// The checkers read only this, never the simulator, so a history recorded on real Redis is judged the same way.
#include <cstdint>
#include <istream>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "model/fault.hpp"
#include "model/history.hpp"

namespace lockcheck::properties {

// A malformed history: the message names the 1-based line number and what is wrong with it.
class ParseError : public std::runtime_error {
 public:
  ParseError(std::int64_t line, const std::string& what);
  std::int64_t line() const { return line_; }

 private:
  std::int64_t line_;
};

// Line 0: what was run.
struct Meta {
  std::int64_t i = 0;
  std::int64_t t = 0;
  std::int64_t schema = 1;
  std::string scenario;
  std::uint64_t seed = 0;
  std::string variant;
  std::int64_t ttl_ms = 0;
  std::int64_t clients = 0;
  std::int64_t nodes = 0;
  bool fencing = false;
  std::int64_t end_us = -1;  // "end": true time the run stopped; -1 when absent (then the last event's t)
  // "replication_lag_max_us": the longest a replica takes to apply a master's write (simulated runs with
  // replicas); -1 when absent (a real deployment: unknown, so a failover may have lost any write).
  std::int64_t replication_lag_max_us = -1;
  // "quorum": how many nodes' instances make one hold of a quorum lock (Redlock: a majority of its
  // independent masters); 0 when absent: every node's instance is a hold of its own.
  std::int64_t quorum = 0;
  // "permits": the lock is a semaphore of this many permits (holders at once); 0 when absent (a lock). Its
  // history is judged by permit_safety, and the mutual exclusion checkers say they do not apply.
  std::int64_t permits = 0;
  // "latch": the history is a count-down latch's of this count (its ops count_down and await, no lock at all);
  // 0 when absent. The latch property judges it, and every lock property says it does not apply.
  std::int64_t latch = 0;
  // "fair": the lock grants waiters in arrival order (a fair lock); false when absent. Its history is judged by
  // fairness, which says it does not apply otherwise.
  bool fair = false;
  // "lossy_links" (fair locks only): the run's links drop messages all along ([link] loss), which no fault line
  // says; false when absent.
  bool lossy_links = false;
  // "lock_keys": keys a variant keeps for a lock besides the lock's own key (rw-two-keys: "<key>:read" shared
  // by readers, "<key>:write" the writer's), as [{"key", "lock", "mode": "read" | "write"}].
  struct DerivedKey {
    std::string key;
    std::string lock;     // the key client ops name
    bool shared = false;  // "mode": "read": held jointly by the readers; "write": by one owner
    bool operator==(const DerivedKey&) const = default;
  };
  std::vector<DerivedKey> lock_keys;
  // "script_files": {sha1: file name} of the user's scripts (variant "script"), so a server line's "script"
  // names the file ("renew.lua") instead of the SHA1 Redis knows it by. Empty when absent.
  std::map<std::string, std::string> script_files;
  // "estimated_validity": the processes (external clients run by `lockcheck judge`) whose library reported no
  // validity of its own: their ops' valid_until is lockcheck's estimate, the request's sending + the TTL, which
  // counts neither a retry inside the acquire nor a background refresh (tools/judge/PROTOCOL.md, "Validity").
  // Empty when absent.
  std::set<std::int64_t> estimated_validity;

  bool operator==(const Meta&) const = default;
};

enum class OpType : std::uint8_t { invoke, ok, fail, info };
// renewal_stop: a background renewal loop ended (an `info` op, the reason in `detail`).
enum class OpFn : std::uint8_t { acquire, release, renew, renewal_stop, other };

// What a client tried (Jepsen style). Optional lease fields are present only where the format says so.
struct Op {
  std::int64_t i = 0;
  std::int64_t t = 0;
  OpType type = OpType::invoke;
  std::int64_t process = 0;
  // "thread": which of the process's threads sharing one lock object (threads_per_process > 1); 0 when absent
  // (one thread per process). A process's threads are separate holders: each owns its own lease.
  std::int64_t thread = 0;
  OpFn fn = OpFn::other;
  std::string f;  // the raw name, kept for messages and for functions this version does not know
  std::string key;
  std::optional<std::int64_t> local_us;
  std::string token;
  std::optional<std::int64_t> valid_until_us;  // true time at which the client's own validity ends
  std::optional<std::int64_t> valid_until_local_us;
  std::optional<std::int64_t> fencing;
  std::string detail;
  std::string result;  // release: released | not_owned | unknown; renew: renewed | lost | unknown; acquire
                       // fail: unreachable | not_refused (it says nothing of who held the lock)
  // An acquire fail's "refused_at": the true time its last attempt found the lock held (absent: the fail's t).
  std::optional<std::int64_t> refused_at_us;
  // An acquire ok's "attempts" when more than one was sent (absent: 1): an earlier attempt may still land late.
  std::int64_t attempts = 1;
  bool shared = false;  // "mode":"read": a shared (read) acquisition of a read-write lock; absent = write
  bool error = false;   // "error":true: the server refused the command (CROSSSLOT, ...), `detail` says how

  bool operator==(const Op&) const = default;
};

// The protected register: reads and writes inside the critical section.
struct ResourceEvent {
  std::int64_t i = 0;
  std::int64_t t = 0;
  std::int64_t process = 0;
  std::int64_t thread = 0;  // as Op::thread
  std::string f;  // "read" or "write"
  std::int64_t value = 0;
  std::int64_t version = 0;
  std::optional<std::int64_t> read_version;  // writes only
  // Writes; and reads too when the resource fences reads (meta fencing_mode "reads-and-writes"): a rejected
  // read returned nothing, so nothing computed from it can be written (a write from it would be fenced too).
  std::optional<std::int64_t> fencing;
  bool accepted = true;
  bool stale = false;                        // writes only

  bool operator==(const ResourceEvent&) const = default;
};

// What the nemesis did. Fields a fault kind does not use keep their defaults (-1 / 0 / "").
struct FaultEvent {
  std::int64_t i = 0;
  std::int64_t t = 0;
  // The line's "fault": a kind (model/fault.hpp's row), or an event that follows one (a resume, a rejoin).
  std::optional<sim::FaultKind> kind;
  sim::FaultFollowUp follow_up = sim::FaultFollowUp::none;
  std::int64_t process = -1;
  std::int64_t node = -1;
  std::int64_t from = -1;  // failover: the old master
  std::int64_t duration_us = 0;
  std::int64_t delta_us = 0;
  std::int64_t drift_ppm = 0;
  std::int64_t delay_us = 0;
  std::int64_t request_ppm = 0;
  std::int64_t reply_ppm = 0;
  std::string mode;  // node_restart: kept | lost | aof_everysec
  // failover: the old master, alive and cut off, still believes it is the master and keeps what it granted
  // on its side (a Sentinel or cluster split-brain) instead of being fenced off at the failover.
  bool from_serving = false;

  bool operator==(const FaultEvent&) const = default;

  bool is(sim::FaultKind of) const { return kind == of; }
  bool is(sim::FaultFollowUp of) const { return follow_up == of; }
  // A loss or slow_node of nothing: it sets back a fault of its own kind (the row's `ended_by`).
  bool is_own_kind_end() const;
  // Whether this line is of the kind that ends `earlier` (its row's `ended_by`), on the same process and node
  // where this kind reads them.
  bool ends(const FaultEvent& earlier) const;
  // As the history spells it.
  std::string_view name() const { return kind ? sim::to_string(*kind) : sim::to_string(follow_up); }
};

enum class ServerEventKind : std::uint8_t {
  created,
  overwritten,
  modified,
  expire_set,
  expire_removed,
  deleted,
  expired,
  evicted,
  lost,
};
std::string_view to_string(ServerEventKind kind);

// One holder of a read-write lock kept as a hash with a field per holder (server event `holders`).
struct Holder {
  std::string token;
  bool write = false;  // "mode": "write"; else a read (shared) hold
  bool operator==(const Holder&) const = default;
};

// A fact a node recorded about one key.
struct ServerEvent {
  std::int64_t i = 0;
  std::int64_t t = 0;
  std::int64_t node = 0;
  ServerEventKind event = ServerEventKind::created;
  std::string key;
  std::string value;  // the string value after the event (the owner's token for token locks), else ""
  std::int64_t by = -1;  // the process whose command caused it; -1 for expiry, eviction, loss
  std::string command;
  std::string script;
  std::int64_t node_time_ms = 0;
  std::int64_t expire_at_ms = -1;  // the deadline on the node clock; -1: no expiry
  // Extension (real Redis): the event ran at or after this true time and at or before `t` (when its
  // notification was read); -1 when the line does not say (it ran at `t`). ran_from_us() reads it.
  std::int64_t since_us = -1;
  std::int64_t ran_from_us() const { return since_us >= 0 && since_us < t ? since_us : t; }
  // Extension: true when a replica applied this from the replication stream. Such events follow the
  // master's decisions (and lag behind them), so judgements of "who took the lock when" skip them.
  bool replicated = false;
  // Extension: every holder in the key's hash after the event (read-write locks with one field per holder);
  // nullopt when the line has no `holders` (string locks, single-owner hashes, a key that is gone).
  std::optional<std::vector<Holder>> holders;

  bool operator==(const ServerEvent&) const = default;
};

using Event = std::variant<Meta, Op, ResourceEvent, FaultEvent, ServerEvent>;

struct History {
  Meta meta;
  std::vector<Event> events;  // in file order, meta included (events[0])
  // The closing line {"kind":"end"} was read: the run that wrote the history reached its end. A file
  // without it was cut short (the simulator's event limit, a truncated copy); the line is not an event.
  bool closed = false;
  std::int64_t closed_at_us = -1;  // its t

  bool operator==(const History&) const = default;

  // The true time the run ends: meta "end" when given, else the last event's t.
  std::int64_t end_us() const;
};

// Parses a whole JSONL history. Blank lines are skipped; anything else malformed throws ParseError.
History parse_history(std::istream& in);
History parse_history(std::string_view text);
// The same history given as its lines, each without its newline: a simulated run's lines as they are kept
// in memory, judged without first joining them into one text.
History parse_history_lines(std::span<const std::string> lines);
// A simulated run's history as the simulator recorded it, read without rendering it as text (the same events
// and errors as parsing its lines()).
History parse_history(const sim::History& recorded);

std::int64_t event_index(const Event& event);  // its "i"
std::int64_t event_time(const Event& event);   // its "t"

}  // namespace lockcheck::properties
