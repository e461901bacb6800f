#pragma once
// The protected resource: a register that clients read and then write (read-modify-write inside their
// critical section). It records every access in the history, marks writes that lose someone's update
// (stale), and checks fencing tokens as configured:
//   * Fencing::writes: a write whose token is below the highest the register has seen is rejected. A stale
//     holder's write that lands between the new holder's read and its write still gets through (no newer
//     token has reached the register yet), and the new holder's write then overwrites it: an update is lost.
//   * Fencing::reads_and_writes: a read registers its token too and is rejected the same way, so once the new
//     holder has read, the stale holder can neither read nor write (Kleppmann's fencing storage).
#include <cstdint>

#include "core/config.hpp"
#include "core/history.hpp"
#include "core/scheduler.hpp"
#include "workload/resource_seam.hpp"

namespace lockcheck::sim {

// The register's decisions, shared by the simulator's Register and the redis backend's resource script
// (tools/redis_backend/resource_client.cpp keeps the same rule in Lua).
bool fencing_accepts_read(Fencing fencing, std::int64_t token, std::int64_t highest);
bool fencing_accepts_write(Fencing fencing, std::int64_t token, std::int64_t highest);

// The history lines of a read and of a write (sim/README.md), shared with the redis backend's workers. A read
// line carries `fencing` and `accepted` only with Fencing::reads_and_writes, so other histories keep their shape.
// `thread` > 0: which of the process's threads sharing one lock object accessed it (the line's "thread", last).
Json resource_read_fields(int process, const RegisterRead& read, Fencing fencing, std::int64_t fencing_token,
                          int thread = 0);
Json resource_write_fields(int process, std::int64_t value, std::int64_t read_version, std::int64_t version,
                           std::int64_t fencing_token, bool accepted, bool stale, int thread = 0);

class Register {
 public:
  Register(History& history, const Scheduler& scheduler, Fencing fencing)
      : history_(history), scheduler_(scheduler), fencing_(fencing) {}

  // `fencing_token` is the reader's lease token; it matters only with Fencing::reads_and_writes, which also
  // records it (and `accepted`) on the read's history line. `thread` > 0: which of the process's threads
  // sharing one lock object accessed it (the line's "thread").
  RegisterRead read(int process, std::int64_t fencing_token, int thread = 0);
  // Returns whether the write was accepted.
  bool write(int process, std::int64_t value, std::int64_t read_version, std::int64_t fencing_token, int thread = 0);

  std::int64_t value() const { return value_; }
  std::int64_t version() const { return version_; }
  std::int64_t highest_fencing() const { return highest_fencing_; }

 private:
  History& history_;
  const Scheduler& scheduler_;
  Fencing fencing_;
  std::int64_t value_ = 0;
  std::int64_t version_ = 0;
  std::int64_t highest_fencing_ = 0;
};

}  // namespace lockcheck::sim
