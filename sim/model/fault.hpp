#pragma once
// The fault model as types: every kind of fault a scenario, the random nemesis or `lockcheck explore` can
// inject, with the fields each kind reads. Both backends apply them through one Nemesis (nemesis.hpp).
#include <array>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

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

// "t=1200ms pause process=1 duration_ms=1500": every field the kind reads, as its scenario key.
std::string describe(const FaultSpec& fault);
// The same fault as a `[[faults]]` table of a scenario file, which reads back into an equal FaultSpec
// (whole milliseconds: the scenario format's unit).
std::string to_toml(const FaultSpec& fault);

}  // namespace lockcheck::sim
