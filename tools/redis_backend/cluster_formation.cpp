#include "cluster_formation.hpp"

#include <chrono>
#include <stdexcept>
#include <thread>

#include "lockcheck/key_slot.hpp"
#include "server_process.hpp"

namespace lockcheck::redis_backend {
namespace {

constexpr int kPollRounds = 400;  // x 25 ms: 10 s, far above the 1-2 s a loopback cluster takes
constexpr auto kPollInterval = std::chrono::milliseconds(25);

// Polls `ready` until it holds, at most kPollRounds times.
template <typename Ready>
void wait_until(Ready ready, const std::string& what) {
  for (int round = 0; round < kPollRounds; ++round) {
    if (ready()) return;
    std::this_thread::sleep_for(kPollInterval);
  }
  throw std::runtime_error("the cluster did not form within 10 s: " + what);
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

std::string cluster_node_id(int port) { return run_command(port, {"CLUSTER", "MYID"}).text; }

std::pair<int, int> initial_slot_range(const sim::ClusterConfig& config, int shard) {
  int first = -1, last = -1;
  for (int slot = 0; slot < kClusterSlots; ++slot) {
    if (sim::cluster_shard_of_slot(config, slot) != shard) continue;
    if (first < 0) first = slot;
    last = slot;
  }
  return {first, last};
}

void form_cluster(const std::vector<ClusterMember>& members, const sim::ClusterConfig& config) {
  std::vector<std::string> ids;
  for (const ClusterMember& member : members) ids.push_back(cluster_node_id(member.port));
  int shard = 0;
  for (std::size_t i = 0; i < members.size(); ++i) {
    const ClusterMember& member = members[i];
    run_command(member.port, {"CONFIG", "SET", "cluster-announce-port", std::to_string(member.announce_port)});
    if (member.replica_of >= 0) continue;
    // Distinct epochs before the nodes meet, as redis-cli does: no collision to resolve afterwards.
    run_command(member.port, {"CLUSTER", "SET-CONFIG-EPOCH", std::to_string(shard + 1)});
    const auto [first, last] = initial_slot_range(config, shard++);
    run_command(member.port, {"CLUSTER", "ADDSLOTSRANGE", std::to_string(first), std::to_string(last)});
  }
  // Every pair meets directly: no waiting for gossip to introduce them.
  for (std::size_t i = 0; i < members.size(); ++i) {
    for (std::size_t j = i + 1; j < members.size(); ++j) {
      run_command(members[i].port, {"CLUSTER", "MEET", "127.0.0.1", std::to_string(members[j].port), std::to_string(members[j].bus_port)});
    }
  }
  const std::string known = "cluster_known_nodes:" + std::to_string(members.size());
  for (std::size_t i = 0; i < members.size(); ++i) {
    const ClusterMember& member = members[i];
    if (member.replica_of < 0) continue;
    const std::string& master = ids.at(static_cast<std::size_t>(member.replica_of));
    wait_until([&] { return contains(run_command(member.port, {"CLUSTER", "NODES"}).text, master + " 127.0.0.1"); },
               "a replica never learned of its master");
    run_command(member.port, {"CLUSTER", "REPLICATE", master});
  }
  for (const ClusterMember& member : members) {
    wait_until(
        [&] {
          const std::string info = run_command(member.port, {"CLUSTER", "INFO"}).text;
          return contains(info, "cluster_state:ok") && contains(info, known);
        },
        "port " + std::to_string(member.port) + " is not ok or does not know every node");
  }
}

}  // namespace lockcheck::redis_backend
