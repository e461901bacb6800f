#pragma once
// The protected resource on the redis backend: the read-modify-write register of sim/core/resource.hpp, kept
// in a separate redis-server that no fault touches, shared by every worker. Read and write are Lua scripts,
// so `stale` (another write was accepted since this read) and the fencing checks (on writes, or on reads and
// writes) are decided atomically at the register, exactly as the simulator's Register decides them.
#include <cstdint>

#include "workload/resource_seam.hpp"
#include "hiredis_client.hpp"

namespace lockcheck::redis_backend {

using ResourceRead = sim::RegisterRead;

struct ResourceWrite {
  bool accepted = false;
  bool stale = false;
  std::int64_t version = 0;
};

class ResourceClient {
 public:
  // The resource server is never faulted: a reply slower than the bound is the machine's load, not a fault, so
  // the bound is one a loaded machine meets (the usual 5 s ended a judged run at load 14).
  static constexpr int kReplyTimeoutS = 30;
  ResourceClient(int port, sim::Fencing fencing) : client_("127.0.0.1", port, "", kReplyTimeoutS), fencing_(fencing) {}

  sim::Fencing fencing() const { return fencing_; }
  // Throw std::runtime_error: the resource server is never faulted, so a failure is an internal error.
  // `fencing_token` matters only with Fencing::reads_and_writes (the read registers it, or is rejected).
  ResourceRead read(std::int64_t fencing_token);
  ResourceWrite write(std::int64_t value, std::int64_t read_version, std::int64_t fencing_token);

 private:
  testing::HiredisClient client_;
  sim::Fencing fencing_;
};

}  // namespace lockcheck::redis_backend
