#pragma once
// The Resource seam: the protected register a holder reads and then writes inside its critical section
// (read-modify-write), with its lease's fencing token. The simulator's Register (core/resource.hpp) and the
// redis backend's resource server (tools/redis_backend/resource_client.hpp) decide alike; this is what the
// workload sees of either.
#include <cstdint>

#include "model/resource_lines.hpp"

namespace lockcheck::sim {

class Resource {
 public:
  virtual ~Resource() = default;
  // Each access writes its own "resource" line: the register is a fact of the world, not the client's
  // account of it (the simulator's Register records at true time as it decides). `fencing_token` is the
  // holder's lease token; `thread` > 0: which of the process's threads sharing one lock object (the line's
  // "thread").
  virtual RegisterRead read(std::int64_t fencing_token, int thread) = 0;
  virtual void write(std::int64_t value, std::int64_t read_version, std::int64_t fencing_token, int thread) = 0;
};

}  // namespace lockcheck::sim
