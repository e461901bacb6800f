#pragma once
// Internal to mutual_exclusion_server: which nodes act as masters of the same data at once, from the facts a
// history records. A `failover` line promotes `node` and fences `from` off (killed) — unless it says
// `"from_serving": true`: an old master cut off with some clients (a Sentinel or cluster split-brain) that goes
// on believing it is the master and keeps what it granted its side (a cluster master stops taking writes at its
// node timeout; a Sentinel one goes on serving). From then until one of the two stops (`node_crash`, `rejoin`
// as a replica, a failover away from it) the two are rivals: two masters of one data set, each granting what
// the other does not see. A failed-over master that is restarted (`node_restart`) comes back a master too (real
// Redis: until the sentinels re-point it, a `rejoin`): from its restart it rivals the current master of its data.
#include <cstdint>
#include <map>
#include <string>

#include "history.hpp"

namespace lockcheck::properties {

class MasterRoles {
 public:
  void on_fault(const FaultEvent& fault);

  // The nodes acting as masters of `node`'s data beside it now, each with the `failover` line that made them
  // rivals.
  std::map<std::int64_t, std::int64_t> rivals(std::int64_t node) const;
  // Why `node` is a master now, as a clause: "node 1 was promoted at t=4s", "node 0, cut off since t=2s, still
  // believed it was the master after the failover at t=4s", "node 0 was a master".
  std::string describe(std::int64_t node) const;

 private:
  struct Promotion {
    std::int64_t i = -1;
    std::int64_t t_us = 0;
  };
  struct Succession {
    std::int64_t node = -1;  // the node promoted in its place
    std::int64_t t_us = 0;
  };
  void restarted(const FaultEvent& fault);
  void stop(std::int64_t node);

  std::map<std::int64_t, std::map<std::int64_t, std::int64_t>> rivals_;  // node -> rival -> failover line
  std::map<std::int64_t, Promotion> promoted_;          // node -> the failover that made it a master
  std::map<std::int64_t, std::int64_t> serving_after_;  // old master still serving -> the failover's t
  std::map<std::int64_t, std::int64_t> cut_off_since_;  // split_brain: node -> t
  std::map<std::int64_t, Succession> successor_;        // failed-over master -> its successor, until it rejoins
  std::map<std::int64_t, std::int64_t> restarted_at_;   // restarted old master, a rival now -> restart t
};

}  // namespace lockcheck::properties
