#include "routing_table.hpp"

#include <stdexcept>

namespace lockcheck::redis_backend {

// `sequence` is odd while the run writes (a sequence lock); `generation` counts publications.
struct RoutingTable::Layout {
  volatile std::uint64_t sequence;
  volatile std::uint64_t generation;
  volatile std::int32_t port[kMaxProcesses][kMaxServices];
};

RoutingTable::RoutingTable(std::string path, bool create) : file_(std::move(path), sizeof(Layout), create) {}

RoutingTable::Layout& RoutingTable::layout() const { return *static_cast<Layout*>(file_.data()); }

void RoutingTable::publish(int process, const std::vector<int>& ports_by_service) {
  if (process < 0 || process >= kMaxProcesses || ports_by_service.size() > static_cast<std::size_t>(kMaxServices)) {
    throw std::invalid_argument("the redis backend supports up to 32 clients and 16 nodes");
  }
  Layout& table = layout();
  write_sequenced(table.sequence, [&] {
    for (std::size_t s = 0; s < ports_by_service.size(); ++s) table.port[process][s] = ports_by_service[s];
    table.generation = table.generation + 1;
  });
}

std::uint64_t RoutingTable::generation() const { return layout().generation; }

std::vector<int> RoutingTable::ports(int process, int services, std::uint64_t& generation) const {
  const Layout& table = layout();
  auto [ports, seen] = read_sequenced(table.sequence, [&] {
    std::vector<int> out(static_cast<std::size_t>(services), 0);
    for (int s = 0; s < services; ++s) out[static_cast<std::size_t>(s)] = table.port[process][s];
    return std::make_pair(out, static_cast<std::uint64_t>(table.generation));
  });
  generation = seen;
  return ports;
}

}  // namespace lockcheck::redis_backend
