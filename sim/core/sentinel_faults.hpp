#pragma once
// Redis Sentinel's faults in the simulated world (sentinel_faults.cpp): failure detection by down-after with
// quorum, failover, the split-brain of an old master cut off with some clients from the sentinels' majority
// (Jepsen's Redis analysis), and min-replicas-to-write. World composes it when the nodes have a [sentinel].
#include <cstdint>
#include <map>

#include "core/sentinel_topology.hpp"
#include "core/world_parts.hpp"
#include "nemesis/nemesis.hpp"

namespace lockcheck::sim {

class SentinelFaults {
 public:
  SentinelFaults(WorldParts world, SentinelTopology& sentinel) : world_(world), sentinel_(sentinel) {}

  // After down-after, fails `master` over if the sentinels still cannot reach it.
  void watch_master(int master);
  // split_brain: master fault.node is cut off from the sentinels, its replicas and every client but
  // fault.process; it keeps accepting that process's writes (unless min-replicas-to-write refuses them) while
  // the sentinels fail over to a replica after down-after.
  void split_brain(const FaultSpec& fault, FaultLine& line);
  // At heal, a cut-off old master is reconfigured as a replica of the new master: its writes are lost.
  void heal();
  // A demoted old master that is up and reachable becomes a replica of the current master.
  void rejoin_as_replica(int old_master);
  // min-replicas-to-write: refuses `master`'s writes while it has too few good replicas.
  void gate_writes(SimNode& master);
  // The replication link of `replica` was cut now (replica_partition): min-replicas-to-write counts from then.
  void replica_cut(int replica) { replica_cut_at_us_[replica] = world_.scheduler.now(); }

 private:
  void failover(int old_master, int promoted);
  SimNode& node(int id) { return world_.node(id); }

  WorldParts world_;
  SentinelTopology& sentinel_;
  std::map<int, std::int64_t> replica_cut_at_us_;  // when a split-brain or replica_partition cut each replica
};

}  // namespace lockcheck::sim
