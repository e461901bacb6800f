#pragma once
// The fault model as types: every kind of fault a scenario, the random nemesis or `lockcheck explore` can
// inject, with the fields each kind reads. Both backends apply them through one Nemesis (nemesis.hpp).
#include <array>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace lockcheck::sim {

enum class FaultKind : std::uint8_t {
  pause,               // a client process stops the world (GC), then resumes believing what it believed
  crash,               // a client process dies without releasing
  restart,             // a crashed client process starts afresh
  client_clock_jump,   // a client's wall clock steps
  client_clock_drift,  // a client's clock runs fast or slow from now on
  node_clock_jump,     // a node's clock steps (TTLs expire early or late)
  node_clock_drift,
  node_crash,          // a node stops; its clients' calls are refused
  node_restart,        // a crashed node comes back with its data kept, lost, or as of its last AOF fsync
  failover,            // a replica is promoted and its old master fenced off
  partition,           // one client cannot reach one node
  heal,                // every partition and cut replication link heals
  loss,                // requests and replies are dropped at these rates from now on
  slow_node,           // a node answers this much later from now on
  evict,               // a node evicts a key under maxmemory
  replica_partition,   // a replica's replication link is cut
  slot_migration,      // the lock key's cluster slot migrates to another master
  split_brain,         // a master is cut off with one client from the majority (cluster or sentinel)
};

inline constexpr std::array kFaultKinds{
    FaultKind::pause,           FaultKind::crash,           FaultKind::restart,
    FaultKind::client_clock_jump, FaultKind::client_clock_drift, FaultKind::node_clock_jump,
    FaultKind::node_clock_drift, FaultKind::node_crash,     FaultKind::node_restart,
    FaultKind::failover,        FaultKind::partition,       FaultKind::heal,
    FaultKind::loss,            FaultKind::slow_node,       FaultKind::evict,
    FaultKind::replica_partition, FaultKind::slot_migration, FaultKind::split_brain,
};

// The scenario files' and the history's spelling ("node_clock_jump").
std::string_view to_string(FaultKind kind);
std::optional<FaultKind> fault_kind_named(std::string_view name);
inline std::ostream& operator<<(std::ostream& out, FaultKind kind) { return out << to_string(kind); }

// Which of FaultSpec's fields a kind reads: the scenario reader requires them, explore draws them, and
// a fault is described with them.
struct FaultFields {
  bool process = false;
  bool node = false;
  bool duration = false;  // duration_us: pause length, slow_node delay, slot_migration length
  bool delta = false;     // delta_us: clock jumps
  bool drift = false;     // drift_ppm
  bool mode = false;      // node_restart's RestartMode
  bool loss = false;      // request_loss_ppm / reply_loss_ppm (one of them suffices)
  bool evict_target = false;
};
FaultFields fields_of(FaultKind kind);

// What a topology must have for a kind to apply: a scenario naming it elsewhere is refused at its line, and
// explore and the random nemesis never draw it there.
enum class FaultNeeds : std::uint8_t {
  nothing,
  replica,              // failover, replica_partition: a node with replica_of
  two_shards,           // slot_migration: a [cluster] of two masters or more
  cluster_or_sentinel,  // split_brain
  eviction_policy,      // evict: a node with maxmemory and a policy other than noeviction
};

// Where a report's timeline draws a kind: on the client's lane, the node's, or across the whole run.
enum class FaultLane : std::uint8_t { client, node, global };

// The theory's family when a find rests on this kind (tools/explore/known_limit.cpp decides per property):
//   replication_loss  the grant never reached the node that serves next (F5, F6, F10)
//   early_expiry      the key expired before its TTL by the node's clock (F7, F9, F12)
//   late_expiry       the key outlived its TTL (S7: a liveness finding, not safety)
//   late_holder       a holder went on past its validity (F4: only fencing at the resource helps)
enum class LimitFamily : std::uint8_t { none, replication_loss, early_expiry, late_expiry, late_holder };

struct TheoryLimit {
  LimitFamily family = LimitFamily::none;
  std::string_view because;  // the sentence a find prints
  std::string_view cases;    // the theory table's cases, "F7, F9"
};

// Every fact about a kind, in one row (fault.cpp): readers ask the row, never spell the kind.
struct FaultKindRow {
  FaultKind kind;
  std::string_view name;  // the scenario files' and the history's spelling
  FaultFields fields;
  FaultNeeds needs;
  // The kind that ends it (crash -> restart, partition -> heal), drawn with it; nullopt when it ends by itself
  // (a pause) or lasts (a clock jump). loss and slow_node end with a second fault of their own kind.
  std::optional<FaultKind> ended_by;
  bool follow_up;  // restart, node_restart, heal: only ever drawn with the fault they end, never named alone
  bool on_redis_server;  // the redis backend can make it real on redis-server
  bool on_serve;         // ... and on `lockcheck serve` (single nodes, no persistence)
  bool lasting;     // its effect lasts until something ends it: it lands when a lock operation meets it
  FaultLane lane;
  // The theory's limit when a find rests on it; clock kinds: `limit` when ahead or fast, `limit_back` when
  // behind or slow. A node_restart that kept its data is no limit (theory_limit_of()).
  TheoryLimit limit;
  TheoryLimit limit_back;
};

const FaultKindRow& fault_row(FaultKind kind);
// The kinds a follow-up ends (node_restart: node_crash; heal: partition, replica_partition, split_brain),
// read from the rows' `ended_by`; empty for a kind that is no follow-up.
std::vector<FaultKind> kinds_ended_by(FaultKind follow_up);

// A history's "fault" line names a kind, or one of the events that follow one (sim/README.md); the redis
// backend records a failover it asked Sentinel for (the sentinels chose the replica) as sentinel_failover.
enum class FaultFollowUp : std::uint8_t { none, resume, slot_migrated, rejoin, sentinel_failover };
std::string_view to_string(FaultFollowUp follow_up);
std::optional<FaultFollowUp> fault_follow_up_named(std::string_view name);

enum class RestartMode : std::uint8_t { kept, lost, aof_everysec };
std::string_view to_string(RestartMode mode);

// evict: `any` draws a victim among all keys, as allkeys-random does; `lock` draws among the lock's own
// keys (LockShape: its key, derived keys, state keys), so a variant's bookkeeping keys cannot shield it.
enum class EvictTarget : std::uint8_t { any, lock };
std::string_view to_string(EvictTarget target);

// One fault at a fixed true time; the fields that matter are fields_of(kind).
struct FaultSpec {
  std::int64_t at_us = 0;
  FaultKind kind = FaultKind::pause;
  int process = -1;
  int node = -1;
  std::int64_t duration_us = 0;
  std::int64_t delta_us = 0;
  std::int64_t drift_ppm = 0;
  RestartMode mode = RestartMode::kept;
  std::uint32_t request_loss_ppm = 0;
  std::uint32_t reply_loss_ppm = 0;
  EvictTarget evict_target = EvictTarget::any;

  bool operator==(const FaultSpec&) const = default;
};

// The theory's limit this fault stands for, if any (the row's, by the fault's sign and restart mode).
std::optional<TheoryLimit> theory_limit_of(const FaultSpec& fault);

// "t=1200ms pause process=1 duration_ms=1500": every field the kind reads, as its scenario key.
std::string describe(const FaultSpec& fault);
// The same fault as a `[[faults]]` table of a scenario file, which reads back into an equal FaultSpec
// (whole milliseconds: the scenario format's unit).
std::string to_toml(const FaultSpec& fault);

}  // namespace lockcheck::sim
