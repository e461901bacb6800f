// lockcheck judge adapter for lockcheck's own Mutex (PROTOCOL.md): the library as a user links it, driven from
// outside, so its verdicts can be set beside the in-process ones on the same scenarios. --watchdog (explore --client's
// reference for a client that renews by itself): renewed in the background, `use` declines a lost lease. One server
// (its first address); with LOCKCHECK_TOPOLOGY=cluster a Redis Cluster (every address); with =sentinel a Sentinel
// deployment (every address a sentinel; the data nodes learned from them).
#include <lockcheck/hiredis_port.hpp>
#include <lockcheck/mutex.hpp>
#include <chrono>
#include <thread>
#include "lease_protocol.hpp"

namespace {

// A field of a SENTINEL MASTER / REPLICAS entry (a flat array of names and values); "" when absent.
std::string field_of(const lockcheck::Reply& entry, const std::string& name) {
  for (std::size_t i = 0; i + 1 < entry.elements.size(); i += 2) {
    if (entry.elements[i].text == name) return entry.elements[i + 1].text;
  }
  return "";
}

// The deployment's data nodes (the master, then its replicas), as the first sentinel that answers names them: the
// judge rewrites their ports to this client's fronts (PROTOCOL.md, "Sentinel"). Every sentinel is asked once a
// round, for at most 50 rounds 100 ms apart (a sentinel restarting); empty when none answered.
std::vector<lockcheck::ConnectionOptions> data_nodes(const std::vector<lockcheck::ConnectionOptions>& sentinels, const std::string& master) {
  lockcheck::HiredisPort port(sentinels);
  for (int round = 0; round < 50; ++round) {
    for (std::size_t k = 0; k < sentinels.size(); ++k) {
      const lockcheck::CallResult named = lockcheck::run_sync(port.call(k, {"SENTINEL", "MASTER", master}));
      const lockcheck::CallResult replicas = lockcheck::run_sync(port.call(k, {"SENTINEL", "REPLICAS", master}));
      if (named.status != lockcheck::CallStatus::replied || named.reply.is_error() ||
          replicas.status != lockcheck::CallStatus::replied || replicas.reply.is_error()) continue;
      std::vector<lockcheck::ConnectionOptions> nodes{lockcheck_judge::connection_to(field_of(named.reply, "ip") + ":" + field_of(named.reply, "port"))};
      for (const lockcheck::Reply& replica : replicas.reply.elements) {
        nodes.push_back(lockcheck_judge::connection_to(field_of(replica, "ip") + ":" + field_of(replica, "port")));
      }
      return nodes;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  using namespace lockcheck_judge;
  const std::string topology = env("LOCKCHECK_TOPOLOGY", "single");
  std::optional<lockcheck::Client> client;
  if (topology == "sentinel") {
    const std::string master = env("LOCKCHECK_SENTINEL_MASTER", "mymaster");
    std::vector<lockcheck::ConnectionOptions> sentinels = connections();
    std::vector<lockcheck::ConnectionOptions> nodes = data_nodes(sentinels, master);
    if (nodes.empty()) { std::cerr << "lockcheck_judge_mutex: no sentinel named the data nodes of '" << master << "'\n"; return 2; }
    client.emplace(lockcheck::SentinelNodes{std::move(nodes), std::move(sentinels), master});
  } else if (topology == "cluster") {
    client.emplace(lockcheck::ClusterNodes{connections()});  // every node's front: the library routes by slot
  } else {
    // Connected on first use (the several-node constructor), not at start: a client restarted while its node is
    // down must say hello and answer `fail`, not die before it can (PROTOCOL.md).
    client.emplace(std::vector<lockcheck::ConnectionOptions>{connections().front()});
  }
  const bool renewing = argc > 1 && std::string(argv[1]) == "--watchdog";
  lockcheck::Mutex mutex(*client, env("LOCKCHECK_KEY", "lock"), lock_options(renewing));
  serve(*client, mutex, "lockcheck Mutex", renewing);
}
