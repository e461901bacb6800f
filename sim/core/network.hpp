#pragma once
// The simulated network between client processes and nodes (sentinels are nodes here too): each link's
// one-way delay and loss rate, the partitions that cut links, the nodes that answer late, and the PRNG that
// decides delays and losses. Its draws are the run's, in the order sends happen, so one seed fixes them.
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "model/prng.hpp"
#include "model/run_config.hpp"

namespace lockcheck::sim {

class Network {
 public:
  Network(const RunConfig& config, std::uint64_t seed);

  // One way's delay on the link process -> node, drawn now.
  std::int64_t delay_us(int process, int node);
  // Whether a request (a reply, a pushed message) on the link is lost: the link is cut, or a draw against
  // the larger of the run's loss rate and the link's own says so (no draw on a cut link).
  bool drops_request(int process, int node);
  bool drops_reply(int process, int node);
  bool cut(int process, int node) const { return partitions_.count({process, node}) > 0; }
  // How much later than its link's delay `node` takes a request (slow_node).
  std::int64_t slow_by_us(int node) const { return slow_node_us_.at(static_cast<std::size_t>(node)); }

  // Faults: a cut link, every cut healed, the run's loss rates, a node's slowness.
  void cut_link(int process, int node) { partitions_.insert({process, node}); }
  void heal_links() { partitions_.clear(); }
  void set_loss(std::uint32_t request_ppm, std::uint32_t reply_ppm);
  void set_slow(int node, std::int64_t by_us) { slow_node_us_.at(static_cast<std::size_t>(node)) = by_us; }
  // Endpoints beyond the nodes (sentinels) reach as many services as `count`.
  void grow_to(std::size_t count) { slow_node_us_.resize(count, 0); }

 private:
  // The link between a process and a node: an override when the scenario has one, else the default.
  const LinkConfig& link(int process, int node) const;

  const RunConfig& config_;
  Prng prng_;
  std::set<std::pair<int, int>> partitions_;  // (process, node) pairs that cannot talk
  std::uint32_t request_loss_ppm_;
  std::uint32_t reply_loss_ppm_;
  std::vector<std::int64_t> slow_node_us_;
};

}  // namespace lockcheck::sim
