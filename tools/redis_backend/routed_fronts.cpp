#include "routed_fronts.hpp"

#include <chrono>
#include <stdexcept>

#include "address_filter.hpp"
#include "cluster_reply_rewrite.hpp"
#include "sentinel_reply_rewrite.hpp"

namespace lockcheck::redis_backend {

RoutedFronts::RoutedFronts(const RoutingTable& table, int process, int services, const std::vector<std::vector<int>>& named_ports,
                           ServerNames names)
    : table_(table), process_(process), services_(services) {
  proxy_ = std::make_unique<LinkProxy>(table_.ports(process_, services_, generation_), 0);
  if (!named_ports.empty()) {
    if (named_ports.size() != static_cast<std::size_t>(services_)) throw std::invalid_argument("routed fronts: named ports for every service");
    PortMap fronts;
    for (std::size_t service = 0; service < named_ports.size(); ++service) {
      for (const int port : named_ports[service]) fronts[port] = proxy_->port(service);
    }
    std::shared_ptr<const ReplyAddresses> replies;
    if (names == ServerNames::cluster) replies = std::make_shared<ClusterReplies>(fronts);
    else replies = std::make_shared<SentinelReplies>(fronts);
    // Before the client is given any front: no connection goes unfiltered.
    proxy_->set_stream_filter([replies] { return std::make_unique<AddressFilter>(replies); });
  }
  thread_ = std::thread([this] { follow(); });
}

RoutedFronts::~RoutedFronts() {
  stopping_ = true;
  thread_.join();
  proxy_->stop();
}

std::vector<int> RoutedFronts::ports() const {
  std::vector<int> out;
  for (int service = 0; service < services_; ++service) out.push_back(proxy_->port(static_cast<std::size_t>(service)));
  return out;
}

void RoutedFronts::follow() {
  // Ends within one period of the destructor's request. A failover is seen within 10 ms, well inside the
  // time a client takes to notice its connection closed and reconnect.
  while (!stopping_) {
    std::uint64_t generation = 0;
    const std::vector<int> ports = table_.ports(process_, services_, generation);
    if (generation != generation_) {
      proxy_->set_target_ports(ports);
      generation_ = generation;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace lockcheck::redis_backend
