#pragma once
// Blocking pops (BLPOP, BRPOP, BLMOVE, BZPOPMIN, ...) on the simulated nodes (blocking_pops.cpp): the calls
// parked until a node's late reply or timeout. World composes it; the late replies travel a ReplyPath.
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "core/process.hpp"
#include "core/reply_path.hpp"
#include "core/scheduler.hpp"
#include "core/sim_node.hpp"

namespace lockcheck::sim {

class BlockingPops {
 public:
  BlockingPops(Scheduler& scheduler, const std::vector<std::unique_ptr<SimNode>>& nodes, ReplyPath& replies)
      : scheduler_(scheduler), nodes_(nodes), replies_(replies) {}

  // `process`'s command left it blocked on `node`: its call waits for the node's late reply.
  void park(int process, int node, std::shared_ptr<PendingCall> pending);
  // Sends what `node` now answers to blocked clients (a command that served them, a timeout).
  void send_late_replies(int node);

 private:
  void schedule_timeout(int node);

  Scheduler& scheduler_;
  const std::vector<std::unique_ptr<SimNode>>& nodes_;
  ReplyPath& replies_;
  std::map<std::pair<int, int>, std::shared_ptr<PendingCall>> parked_;  // by (node, process)
};

}  // namespace lockcheck::sim
