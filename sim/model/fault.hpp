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
  std::int64_t beyond_drift_ppm = 0;  // a drift counts only past this rate (a margin the lock allows for)
};

// The fields of a kind's history line after "fault", in their order (sim/README.md, "History"). The dispatcher
// (nemesis/dispatch.cpp) writes them from the FaultSpec; `from` and `slot` only the backend knows, at write().
enum class LineField : std::uint8_t {
  none,  // past the kind's last field
  process,
  node,
  duration_us,
  delay_us,  // slow_node's FaultSpec::duration_us
  delta_us,
  drift_ppm,
  mode,         // node_restart's RestartMode
  from,         // the backend's: the master a failover fenced off, the one a slot migrates from
  slot,         // the backend's: the slot that migrates
  loss_ppm,     // "request_ppm", then "reply_ppm"
  evict_target, // "target", written only when not `any`
};
using LineFields = std::array<LineField, 4>;

// Which coverage marks (properties/exercise.hpp) the kind's own line feeds; the other marks come from what a
// fault causes (a lost reply, an evicted or expired key), whatever its kind.
enum class FaultCoverage : std::uint8_t {
  effects_only,  // its line feeds none: its marks are what it causes
  paused_process,   // pause_during_hold (its process holds), renewal_across_pause (its renewal was in flight)
  crashed_process,  // waiter_when_holder_died (its process held, another waited); its holds end
  clock_jump,       // clock_jump_while_held (anyone held)
  cut_process,      // partition_during_hold (its process held)
  node_fault,       // node_fault_during_hold (anyone held)
};

// How fair_waits (properties/fair_waits.cpp) excuses a waiter's slow turn by a fault of this kind: for how long,
// whose turn (`of_process`: only its process's, else anyone's), in which words ({process}, {node}, {when},
// {duration}, {name} are the line's). A kind that ends its own kind (loss, slow_node) excuses nothing when
// the line is such an end.
enum class ExcuseSpan : std::uint8_t {
  never,         // a waiter's turn does not rest on it
  instant,       // the moment of its line
  for_duration,  // from its line for its duration_us
  until_ended,   // from its line until the line of the fault that ends it (`ended_by`), else the run's end
  // A clock set back: from its line for |delta_us| (every deadline scored on that clock before it now lapses
  // that much later); an instant when set ahead.
  for_delta_back,
};
struct WaitExcuse {
  ExcuseSpan span = ExcuseSpan::never;
  bool of_process = false;
  std::string_view words;
};

// Every fact about a kind, in one row (fault_rows::row_of below): readers ask the row, never spell the kind.
struct FaultKindRow {
  FaultKind kind;
  std::string_view name;  // the scenario files' and the history's spelling
  FaultFields fields;
  FaultNeeds needs;
  // The kind that ends it (crash -> restart, partition -> heal), drawn with it; nullopt when it ends by itself
  // (a pause) or lasts (a clock jump). loss and slow_node end with a second fault of their own kind. A fault
  // ends one with the same process and node, where the ending kind reads them.
  std::optional<FaultKind> ended_by;
  bool follow_up;  // restart, node_restart, heal: only ever drawn with the fault they end, never named alone
  bool on_redis_server;  // the redis backend can make it real on redis-server
  bool on_serve;         // ... and on `lockcheck serve` (single nodes, no persistence)
  // False: refused by name on a [sentinel], before any other refusal (replica_partition, slot_migration); a kind
  // redis-server cannot make real anywhere (evict) is refused by on_redis_server.
  bool on_redis_sentinel;
  bool lasting;     // its effect lasts until something ends it: it lands when a lock operation meets it
  FaultLane lane;
  // The theory's limit when a find rests on it; clock kinds: `limit` when ahead or fast, `limit_back` when
  // behind or slow. A node_restart that kept its data is no limit (theory_limit_of()).
  TheoryLimit limit;
  TheoryLimit limit_back;
  LineFields line;
  FaultCoverage coverage;
  WaitExcuse excuse;
};

namespace fault_rows {

using enum FaultNeeds;
using enum LineField;
using enum FaultCoverage;
using enum ExcuseSpan;
constexpr FaultLane on_client = FaultLane::client;
constexpr FaultLane on_node = FaultLane::node;
constexpr FaultLane on_run = FaultLane::global;

inline constexpr TheoryLimit kNoLimit{};
inline constexpr TheoryLimit kFailover{LimitFamily::replication_loss, "a failover promoted a replica the grant had not reached (asynchronous replication, F5)", "F5"};
inline constexpr TheoryLimit kSplitBrain{LimitFamily::replication_loss, "a split brain let a cut-off master and a promoted replica both grant (F6)", "F6"};
inline constexpr TheoryLimit kRestartWithoutGrant{LimitFamily::replication_loss, "a node restarted without the grant (no fsync of it, F10)", "F10"};
inline constexpr TheoryLimit kNodeClockAhead{LimitFamily::early_expiry, "a node's clock jumped ahead and expired the key early (F7, F9)", "F7, F9"};
inline constexpr TheoryLimit kNodeClockBack{LimitFamily::late_expiry, "a node's clock stepped back and the key outlived its TTL (S7)", "S7"};
inline constexpr TheoryLimit kNodeClockFast{LimitFamily::early_expiry, "a node's clock ran fast and expired the key early (F12)", "F12"};
inline constexpr TheoryLimit kNodeClockSlow{LimitFamily::late_expiry, "a node's clock ran slow and the key outlived its TTL (S7)", "S7"};
// A holder measures its validity on its own clock, with a margin for drift (lockcheck::LockOptions::clock_drift_ppm,
// 1% by default): a clock running slower than that makes it believe in a lease its key no longer has.
// The margin is LockOptions' default: a lock given a wider one would need its configuration here.
inline constexpr TheoryLimit kClientClockSlow{LimitFamily::late_holder, "a holder's clock ran slow past the lock's drift margin, so its validity outlasted its key (F12, F13, on the client's clock)", "F12, F13", 10000};
inline constexpr TheoryLimit kPausedHolder{LimitFamily::late_holder, "a holder was paused past its validity and went on (Kleppmann's case, F4; only fencing at the resource helps)", "F4"};
inline constexpr WaitExcuse kNoExcuse{};
inline constexpr WaitExcuse kAnInstant{instant, false, "a {name} at t={when}"};
// A fair lock scores its waiters' deadlines on the node's clock: set back, a dead waiter's place stands that much
// longer (fair_lock.hpp: "a server clock jump ... moves every waiter's deadline").
inline constexpr WaitExcuse kNodeClockSetBack{for_delta_back, false, "a {name} at t={when}"};

// The row of each kind. Every kind is a case (no default): -Wswitch names this function for a kind without a
// row, and a value past the last kind falls through to the empty row, which ends kFaultKinds.
constexpr FaultKindRow row_of(FaultKind kind) {
  switch (kind) {
    case FaultKind::pause:
      return {.kind = FaultKind::pause, .name = "pause", .fields = {.process = true, .duration = true}, .needs = nothing,
              .ended_by = std::nullopt, .follow_up = false,
              .on_redis_server = true, .on_serve = true, .on_redis_sentinel = true, .lasting = true,
              .lane = on_client, .limit = kPausedHolder, .limit_back = kPausedHolder, .line = {process, duration_us}, .coverage = paused_process,
              .excuse = {for_duration, true, "process {process} was paused at t={when} for {duration}"}};
    case FaultKind::crash:
      return {.kind = FaultKind::crash, .name = "crash", .fields = {.process = true}, .needs = nothing,
              .ended_by = FaultKind::restart, .follow_up = false,
              .on_redis_server = true, .on_serve = true, .on_redis_sentinel = true, .lasting = true,
              .lane = on_client, .limit = kNoLimit, .limit_back = kNoLimit, .line = {process}, .coverage = crashed_process,
              .excuse = {until_ended, true, "process {process} crashed at t={when}"}};
    case FaultKind::restart:
      return {.kind = FaultKind::restart, .name = "restart", .fields = {.process = true}, .needs = nothing,
              .ended_by = std::nullopt, .follow_up = true,
              .on_redis_server = true, .on_serve = true, .on_redis_sentinel = true, .lasting = false,
              .lane = on_client, .limit = kNoLimit, .limit_back = kNoLimit, .line = {process}, .coverage = effects_only,
              .excuse = kNoExcuse};
    // client_clock_jump: excuses nothing: a correct fair lock trusts no client's clock.
    case FaultKind::client_clock_jump:
      return {.kind = FaultKind::client_clock_jump, .name = "client_clock_jump", .fields = {.process = true, .delta = true}, .needs = nothing,
              .ended_by = std::nullopt, .follow_up = false,
              .on_redis_server = true, .on_serve = true, .on_redis_sentinel = true, .lasting = true,
              .lane = on_client, .limit = kNoLimit, .limit_back = kNoLimit, .line = {process, delta_us}, .coverage = clock_jump,
              .excuse = kNoExcuse};
    case FaultKind::client_clock_drift:
      return {.kind = FaultKind::client_clock_drift, .name = "client_clock_drift", .fields = {.process = true, .drift = true}, .needs = nothing,
              .ended_by = std::nullopt, .follow_up = false,
              .on_redis_server = true, .on_serve = true, .on_redis_sentinel = true, .lasting = true,
              .lane = on_client, .limit = kNoLimit, .limit_back = kClientClockSlow, .line = {process, drift_ppm}, .coverage = effects_only,
              .excuse = kNoExcuse};
    case FaultKind::node_clock_jump:
      return {.kind = FaultKind::node_clock_jump, .name = "node_clock_jump", .fields = {.node = true, .delta = true}, .needs = nothing,
              .ended_by = std::nullopt, .follow_up = false,
              .on_redis_server = true, .on_serve = true, .on_redis_sentinel = true, .lasting = true,
              .lane = on_node, .limit = kNodeClockAhead, .limit_back = kNodeClockBack, .line = {node, delta_us}, .coverage = clock_jump,
              .excuse = kNodeClockSetBack};
    // node_clock_drift: excuses nothing: a waiter polls within a fraction of its lease, a drifting clock (30% at most)
    // does not make it miss one.
    case FaultKind::node_clock_drift:
      return {.kind = FaultKind::node_clock_drift, .name = "node_clock_drift", .fields = {.node = true, .drift = true}, .needs = nothing,
              .ended_by = std::nullopt, .follow_up = false,
              .on_redis_server = true, .on_serve = true, .on_redis_sentinel = true, .lasting = true,
              .lane = on_node, .limit = kNodeClockFast, .limit_back = kNodeClockSlow, .line = {node, drift_ppm}, .coverage = effects_only,
              .excuse = kNoExcuse};
    case FaultKind::node_crash:
      return {.kind = FaultKind::node_crash, .name = "node_crash", .fields = {.node = true}, .needs = nothing,
              .ended_by = FaultKind::node_restart, .follow_up = false,
              .on_redis_server = true, .on_serve = true, .on_redis_sentinel = true, .lasting = true,
              .lane = on_node, .limit = kNoLimit, .limit_back = kNoLimit, .line = {node}, .coverage = node_fault,
              .excuse = {until_ended, false, "node {node} crashed at t={when}"}};
    case FaultKind::node_restart:
      return {.kind = FaultKind::node_restart, .name = "node_restart", .fields = {.node = true, .mode = true}, .needs = nothing,
              .ended_by = std::nullopt, .follow_up = true,
              .on_redis_server = true, .on_serve = true, .on_redis_sentinel = true, .lasting = false,
              .lane = on_node, .limit = kRestartWithoutGrant, .limit_back = kRestartWithoutGrant, .line = {node, mode}, .coverage = node_fault,
              .excuse = kAnInstant};
    case FaultKind::failover:
      return {.kind = FaultKind::failover, .name = "failover", .fields = {.node = true}, .needs = replica,
              .ended_by = std::nullopt, .follow_up = false,
              .on_redis_server = true, .on_serve = false, .on_redis_sentinel = true, .lasting = false,
              .lane = on_node, .limit = kFailover, .limit_back = kFailover, .line = {node, from}, .coverage = node_fault,
              .excuse = kAnInstant};
    case FaultKind::partition:
      return {.kind = FaultKind::partition, .name = "partition", .fields = {.process = true, .node = true}, .needs = nothing,
              .ended_by = FaultKind::heal, .follow_up = false,
              .on_redis_server = true, .on_serve = true, .on_redis_sentinel = true, .lasting = true,
              .lane = on_client, .limit = kNoLimit, .limit_back = kNoLimit, .line = {process, node}, .coverage = cut_process,
              .excuse = {until_ended, true, "process {process} was cut off from node {node} at t={when}"}};
    case FaultKind::heal:
      return {.kind = FaultKind::heal, .name = "heal", .fields = {}, .needs = nothing,
              .ended_by = std::nullopt, .follow_up = true,
              .on_redis_server = true, .on_serve = true, .on_redis_sentinel = true, .lasting = false,
              .lane = on_run, .limit = kNoLimit, .limit_back = kNoLimit, .line = {}, .coverage = effects_only,
              .excuse = kNoExcuse};
    case FaultKind::loss:
      return {.kind = FaultKind::loss, .name = "loss", .fields = {.loss = true}, .needs = nothing,
              .ended_by = FaultKind::loss, .follow_up = false,
              .on_redis_server = true, .on_serve = true, .on_redis_sentinel = true, .lasting = true,
              .lane = on_run, .limit = kNoLimit, .limit_back = kNoLimit, .line = {loss_ppm}, .coverage = effects_only,
              .excuse = {until_ended, false, "messages were lost from t={when}"}};
    case FaultKind::slow_node:
      return {.kind = FaultKind::slow_node, .name = "slow_node", .fields = {.node = true, .duration = true}, .needs = nothing,
              .ended_by = FaultKind::slow_node, .follow_up = false,
              .on_redis_server = true, .on_serve = true, .on_redis_sentinel = true, .lasting = true,
              .lane = on_node, .limit = kNoLimit, .limit_back = kNoLimit, .line = {node, delay_us}, .coverage = effects_only,
              .excuse = {until_ended, false, "node {node} was slow from t={when}"}};
    case FaultKind::evict:
      return {.kind = FaultKind::evict, .name = "evict", .fields = {.node = true, .evict_target = true}, .needs = eviction_policy,
              .ended_by = std::nullopt, .follow_up = false,
              .on_redis_server = false, .on_serve = false, .on_redis_sentinel = true, .lasting = true,
              .lane = on_node, .limit = kNoLimit, .limit_back = kNoLimit, .line = {node, evict_target}, .coverage = effects_only,
              .excuse = kAnInstant};
    case FaultKind::replica_partition:
      return {.kind = FaultKind::replica_partition, .name = "replica_partition", .fields = {.node = true}, .needs = replica,
              .ended_by = FaultKind::heal, .follow_up = false,
              .on_redis_server = false, .on_serve = false, .on_redis_sentinel = false, .lasting = true,
              .lane = on_node, .limit = kNoLimit, .limit_back = kNoLimit, .line = {node}, .coverage = effects_only,
              .excuse = {until_ended, false, "a replica was cut off at t={when}"}};
    case FaultKind::slot_migration:
      return {.kind = FaultKind::slot_migration, .name = "slot_migration", .fields = {.node = true, .duration = true}, .needs = two_shards,
              .ended_by = std::nullopt, .follow_up = false,
              .on_redis_server = true, .on_serve = false, .on_redis_sentinel = false, .lasting = false,
              .lane = on_node, .limit = kNoLimit, .limit_back = kNoLimit, .line = {node, from, slot, duration_us}, .coverage = effects_only,
              .excuse = kAnInstant};
    case FaultKind::split_brain:
      return {.kind = FaultKind::split_brain, .name = "split_brain", .fields = {.process = true, .node = true}, .needs = cluster_or_sentinel,
              .ended_by = FaultKind::heal, .follow_up = false,
              .on_redis_server = true, .on_serve = false, .on_redis_sentinel = true, .lasting = true,
              .lane = on_node, .limit = kSplitBrain, .limit_back = kSplitBrain, .line = {node, process}, .coverage = node_fault,
              .excuse = {until_ended, false, "a split brain from t={when}"}};
  }
  return {};
}

// How many kinds: the enum's values from 0 that have a row.
constexpr std::size_t kind_count() {
  std::size_t count = 0;
  while (count < 256 && !row_of(static_cast<FaultKind>(count)).name.empty()) ++count;
  return count;
}

inline constexpr auto kRows = [] {
  std::array<FaultKindRow, kind_count()> rows{};
  for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = row_of(static_cast<FaultKind>(i));
  return rows;
}();

// Each row names its own kind, and every name is one kind's.
constexpr bool rows_consistent() {
  for (std::size_t i = 0; i < kRows.size(); ++i) {
    if (static_cast<std::size_t>(kRows[i].kind) != i) return false;
    for (std::size_t j = 0; j < i; ++j) {
      if (kRows[j].name == kRows[i].name) return false;
    }
  }
  return true;
}
static_assert(rows_consistent(), "a FaultKind's row must name that kind, and each kind its own name");

}  // namespace fault_rows

// Every kind, in the enum's order.
inline constexpr auto kFaultKinds = [] {
  std::array<FaultKind, fault_rows::kRows.size()> kinds{};
  for (std::size_t i = 0; i < kinds.size(); ++i) kinds[i] = fault_rows::kRows[i].kind;
  return kinds;
}();

constexpr const FaultKindRow& fault_row(FaultKind kind) { return fault_rows::kRows[static_cast<std::size_t>(kind)]; }
constexpr FaultFields fields_of(FaultKind kind) { return fault_row(kind).fields; }

// The scenario files' and the history's spelling ("node_clock_jump").
constexpr std::string_view to_string(FaultKind kind) { return fault_row(kind).name; }
std::optional<FaultKind> fault_kind_named(std::string_view name);
inline std::ostream& operator<<(std::ostream& out, FaultKind kind) { return out << to_string(kind); }

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

// Whether `fault` sets back a fault of its own kind (a loss or slow_node of nothing): the end of one.
bool is_own_kind_end(const FaultSpec& fault);
// Whether `later` ends `fault` (the row's `ended_by`, on the same process and node where the ending kind reads
// them; a fault of its own kind only when it is such an end).
bool ends(const FaultSpec& later, const FaultSpec& fault);

// "t=1200ms pause process=1 duration_ms=1500": every field the kind reads, as its scenario key.
std::string describe(const FaultSpec& fault);
// The same fault as a `[[faults]]` table of a scenario file, which reads back into an equal FaultSpec
// (whole milliseconds: the scenario format's unit).
std::string to_toml(const FaultSpec& fault);

}  // namespace lockcheck::sim
