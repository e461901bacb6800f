// lockcheck judge adapter for lockcheck's own Mutex (PROTOCOL.md): the library as a user links it, driven from
// outside, so its verdicts can be set beside the in-process ones on the same scenarios. --watchdog (explore --client's
// reference for a client that renews by itself): renewed in the background, `use` declines a lost lease. One server
// (its first address) or, with LOCKCHECK_TOPOLOGY=cluster, a Redis Cluster (every address).
#include <lockcheck/mutex.hpp>
#include "lease_protocol.hpp"
int main(int argc, char** argv) {
  using namespace lockcheck_judge;
  const std::string topology = env("LOCKCHECK_TOPOLOGY", "single");
  if (topology == "sentinel") {
    std::cerr << "lockcheck_judge_mutex: one Redis server or a cluster, not LOCKCHECK_TOPOLOGY=sentinel\n"; return 2;
  }
  // Connected on first use (the several-node and cluster constructors), not at start: a client restarted while its
  // node is down must say hello and answer `fail`, not die before it can (PROTOCOL.md). On a cluster, every node's
  // front (LOCKCHECK_REDIS): the library routes by slot.
  lockcheck::Client client = topology == "cluster" ? lockcheck::Client(lockcheck::ClusterNodes{connections()})
                                                   : lockcheck::Client(std::vector<lockcheck::ConnectionOptions>{connections().front()});
  const bool renewing = argc > 1 && std::string(argv[1]) == "--watchdog";
  lockcheck::Mutex mutex(client, env("LOCKCHECK_KEY", "lock"), lock_options(renewing));
  serve(client, mutex, "lockcheck Mutex", renewing);
}
