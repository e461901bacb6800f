#pragma once
// Which TCP port each client process uses for each service (a lock node index the lock code addresses),
// shared between the run and its worker processes through a mapped file. The run rewrites it on a failover
// (a service now points at the promoted replica) and on a partition (the link points at a port that refuses
// connections); a worker's RoutingPort notices the new generation at its next call and reconnects.
#include <cstdint>
#include <string>
#include <vector>

#include "shared_file.hpp"

namespace lockcheck::redis_backend {

inline constexpr int kMaxProcesses = 32;
inline constexpr int kMaxServices = 16;

class RoutingTable {
 public:
  // create: the run makes the file; otherwise a worker maps it.
  RoutingTable(std::string path, bool create);
  const std::string& path() const { return file_.path(); }

  // The run: sets every port of one process at once and publishes a new generation.
  void publish(int process, const std::vector<int>& ports_by_service);
  // A worker: the ports of `process` and the generation they belong to (a consistent copy).
  std::vector<int> ports(int process, int services, std::uint64_t& generation) const;
  std::uint64_t generation() const;

 private:
  struct Layout;
  Layout& layout() const;
  SharedFile file_;
};

}  // namespace lockcheck::redis_backend
