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

#include "model/run_config.hpp"
#include "model/history.hpp"
#include "core/scheduler.hpp"
#include "model/resource_lines.hpp"
#include "workload/resource_seam.hpp"

namespace lockcheck::sim {

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
