#pragma once
// The protected write of an external client: the resource is written when the client answers `use` (when it
// would perform the write), so a client paused between its last check and its write writes late, as a
// GC-paused service does. Reads go straight to the resource. A `fail` or `info` answer writes nothing.
#include "external_lock.hpp"
#include "workload/resource_seam.hpp"

namespace lockcheck::judge {

class UseBeforeWrite final : public sim::Resource {
 public:
  UseBeforeWrite(sim::Resource& resource, ExternalLock& lock) : resource_(resource), lock_(lock) {}
  sim::RegisterRead read(std::int64_t fencing_token, int thread) override { return resource_.read(fencing_token, thread); }
  void write(std::int64_t value, std::int64_t read_version, std::int64_t fencing_token, int thread) override {
    const Reply reply = lock_.use();
    if (reply.type != Reply::Type::ok) return;
    resource_.write(value, read_version, reply.fence().value_or(fencing_token), thread);
  }

 private:
  sim::Resource& resource_;
  ExternalLock& lock_;
};

}  // namespace lockcheck::judge
