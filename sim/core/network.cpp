#include "core/network.hpp"

#include <algorithm>

#include "lockcheck/assert.hpp"

namespace lockcheck::sim {

Network::Network(const RunConfig& config, std::uint64_t seed)
    : config_(config),
      prng_(derive_seed(seed, "network")),
      request_loss_ppm_(config.link.request_loss_ppm),
      reply_loss_ppm_(config.link.reply_loss_ppm),
      slow_node_us_(config.nodes.size(), 0) {}

const LinkConfig& Network::link(int process, int node) const {
  for (const LinkOverride& entry : config_.link_overrides) {
    if (entry.process == process && entry.node == node) return entry.link;
  }
  return config_.link;
}

std::int64_t Network::delay_us(int process, int node) {
  const LinkConfig& path = link(process, node);
  LOCKCHECK_ASSERT(path.delay_min_us >= 0 && path.delay_min_us <= path.delay_max_us);  // no reply before its request
  return prng_.between(path.delay_min_us, path.delay_max_us);
}

bool Network::drops_request(int process, int node) {
  const std::uint32_t loss_ppm = std::max(request_loss_ppm_, link(process, node).request_loss_ppm);
  return cut(process, node) || prng_.chance_ppm(loss_ppm);
}

bool Network::drops_reply(int process, int node) {
  const std::uint32_t loss_ppm = std::max(reply_loss_ppm_, link(process, node).reply_loss_ppm);
  return cut(process, node) || prng_.chance_ppm(loss_ppm);
}

void Network::set_loss(std::uint32_t request_ppm, std::uint32_t reply_ppm) {
  LOCKCHECK_ASSERT(request_ppm <= 1'000'000 && reply_ppm <= 1'000'000);  // rates, in parts per million
  request_loss_ppm_ = request_ppm;
  reply_loss_ppm_ = reply_ppm;
}

}  // namespace lockcheck::sim
