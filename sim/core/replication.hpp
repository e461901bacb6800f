#pragma once
// Asynchronous replication between the simulated nodes, the replication links a fault can cut, and WAIT on a
// master (replication.cpp). World composes it and tells it of writes, cuts and crashes; a WAIT's answer
// reaches its client through a ReplyPath (the world's network).
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/process.hpp"
#include "core/reply_path.hpp"
#include "core/scheduler.hpp"
#include "core/sim_node.hpp"
#include "model/prng.hpp"
#include "model/run_config.hpp"

namespace lockcheck::sim {

class Replication {
 public:
  Replication(const RunConfig& config, std::uint64_t seed, Scheduler& scheduler,
              const std::vector<std::unique_ptr<SimNode>>& nodes, ReplyPath& answers);

  // Ships `master`'s data set to each replica whose link is not cut, after the replica's drawn lag; a replica
  // that applies it wakes the master's WAITs.
  void replicate(SimNode& master);

  // The replication link of `replica` (replica_partition, a split-brain): what is shipped on a cut link is lost.
  void cut(int replica) { cut_replicas_.insert(replica); }
  void restore(int replica) { cut_replicas_.erase(replica); }
  bool linked(int replica) const { return cut_replicas_.count(replica) == 0; }
  // Every cut link restored; returns the replicas that were cut (heal).
  std::set<int> restore_all();

  // WAIT numreplicas timeout, run on master `node` by `process`: answered at once when enough replicas have
  // what the master had sent, else when they do or at the timeout on the master's clock.
  void start_wait(int process, int node, const SimNode::WaitRequest& request, std::shared_ptr<PendingCall> pending);
  // The master `node` crashed or was fenced: its blocked WAITs' connections break.
  void drop_waits(int node);

 private:
  struct ReplicaWait {
    int process = 0;
    int node = 0;
    std::uint64_t target_sequence = 0;
    std::int64_t numreplicas = 0;
    std::shared_ptr<PendingCall> pending;
  };
  std::int64_t acknowledged_replicas(int master, std::uint64_t target_sequence) const;
  void wake_waits(int master);
  void finish_wait(std::uint64_t id);

  const RunConfig& config_;
  Scheduler& scheduler_;
  const std::vector<std::unique_ptr<SimNode>>& nodes_;
  ReplyPath& answers_;
  Prng prng_;  // the replicas' lags
  std::set<int> cut_replicas_;
  std::uint64_t replication_sequence_ = 0;
  std::vector<std::uint64_t> sent_sequence_;  // per node: the last replication sequence it sent as a master
  std::map<std::uint64_t, ReplicaWait> waits_;  // blocked WAITs by id (creation order)
  std::uint64_t next_wait_id_ = 0;
};

}  // namespace lockcheck::sim
