#include "core/sentinel_topology.hpp"

#include <fmt/format.h>

#include <utility>

#include "lockcheck/assert.hpp"
#include "lockcheck/sha1.hpp"
#include "redis/command_table/errors.hpp"
#include "redis/server/node.hpp"

namespace lockcheck::sim {
namespace {

constexpr int kFirstNodePort = 6379;
constexpr int kFirstSentinelPort = 26379;  // Sentinel's default port
constexpr const char* kHost = "127.0.0.1";

mock::SentinelAddress address_of(int port, const std::string& seed) {
  return mock::SentinelAddress{kHost, port, sha1_hex(seed)};
}

}  // namespace

SentinelTopology::SentinelTopology(const SentinelConfig& config, std::vector<std::unique_ptr<SimNode>>& nodes)
    : config_(config), nodes_(nodes) {
  for (const auto& node : nodes_) addresses_.push_back(fmt::format("{}:{}", kHost, kFirstNodePort + node->id()));
  for (int sentinel = 0; sentinel < config_.sentinels; ++sentinel) {
    addresses_.push_back(fmt::format("{}:{}", kHost, kFirstSentinelPort + sentinel));
  }
  assign_roles();
}

Port& SentinelTopology::make_port(Port& endpoints) {
  std::vector<std::size_t> sentinels;
  for (int endpoint = static_cast<int>(nodes_.size()); endpoint < endpoint_count(); ++endpoint) {
    sentinels.push_back(static_cast<std::size_t>(endpoint));
  }
  ports_.push_back(std::make_unique<SentinelPort>(endpoints, addresses_, std::move(sentinels), config_.master_name));
  return *ports_.back();
}

mock::SentinelKnowledge SentinelTopology::knowledge(int sentinel) const {
  LOCKCHECK_ASSERT(sentinel >= 0 && sentinel < config_.sentinels);  // asked of a sentinel of the deployment
  mock::SentinelKnowledge known;
  known.master_name = config_.master_name;
  const auto node_address = [](int id) {
    return address_of(kFirstNodePort + id, fmt::format("lockcheck sentinel-topology node {}", id));
  };
  const bool stranded = with_master(sentinel);
  const int named = stranded ? stranded_master_ : master_;
  known.master = node_address(named);
  known.master_down = !stranded && master_unreachable();
  for (const auto& node : nodes_) {
    if (node->id() != named) known.replicas.push_back(node_address(node->id()));
  }
  for (int k = 0; k < config_.sentinels; ++k) {
    known.sentinels.push_back(address_of(kFirstSentinelPort + k, fmt::format("lockcheck sentinel {}", k)));
  }
  known.myself = static_cast<std::size_t>(sentinel);
  known.quorum = config_.quorum;
  known.down_after_ms = config_.down_after_us / 1000;
  known.config_epoch = stranded ? stranded_epoch_ : epoch_;
  return known;
}

std::set<int> SentinelTopology::reconnect_all() {
  stranded_ = 0;
  return std::exchange(cut_off_, {});
}

void SentinelTopology::leave_with_master(int count) {
  stranded_ = count;
  stranded_master_ = master_;
  stranded_epoch_ = epoch_;
}

bool SentinelTopology::can_fail_over() const {
  const int voters = config_.sentinels - stranded_;
  return voters >= config_.quorum && voters >= config_.sentinels / 2 + 1;
}

Reply SentinelTopology::answer(int endpoint, const Command& command) const {
  return mock::sentinel_execute(knowledge(endpoint - static_cast<int>(nodes_.size())), command);
}

bool SentinelTopology::master_unreachable() const {
  return !nodes_[static_cast<std::size_t>(master_)]->up() || is_cut_off(master_);
}

int SentinelTopology::pick_replica() const {
  int best = -1;
  for (const auto& node : nodes_) {
    if (node->replica_of() != master_ || !node->up() || is_cut_off(node->id())) continue;
    if (best < 0 || node->applied_sequence() > nodes_[static_cast<std::size_t>(best)]->applied_sequence()) best = node->id();
  }
  return best;
}

void SentinelTopology::elect(int promoted) {
  master_ = promoted;
  ++epoch_;
}

void SentinelTopology::assign_roles() {
  for (auto& node : nodes_) {
    mock::ReplicationInfo info;
    const int master = node->replica_of();
    if (master < 0) {
      node->mock().set_replication_info(info);
      node->mock().set_write_refusal("");  // from now on only min-replicas-to-write refuses (SentinelFaults::gate_writes)
      continue;
    }
    // A replica follows a master, never another replica (failovers re-point every replica of the old master).
    LOCKCHECK_ASSERT(static_cast<std::size_t>(master) < nodes_.size() &&
                     nodes_[static_cast<std::size_t>(master)]->replica_of() < 0);
    info.role = "slave";
    info.master_host = kHost;
    info.master_port = kFirstNodePort + master;
    info.extra_lines = fmt::format("master_host:{}\r\nmaster_port:{}\r\nmaster_link_status:up\r\n", kHost, info.master_port);
    node->mock().set_replication_info(std::move(info));
    node->mock().set_write_refusal(std::string(mock::err::kReadonlyReplica));
  }
}

Json SentinelTopology::meta() const {
  return Json{{"sentinels", config_.sentinels}, {"quorum", config_.quorum}, {"master", master_},
              {"down_after_ms", config_.down_after_us / 1000}, {"min_replicas_to_write", config_.min_replicas_to_write}};
}

}  // namespace lockcheck::sim
