#pragma once
// The protected resource: a register that clients read and then write (read-modify-write inside their
// critical section). It records every access in the history, marks writes that lose someone's update
// (stale), and, when fencing is on, rejects writes whose fencing token is below the highest accepted.
#include <cstdint>

#include "core/history.hpp"
#include "core/scheduler.hpp"

namespace lockcheck::sim {

struct RegisterRead {
  std::int64_t value = 0;
  std::int64_t version = 0;
};

class Register {
 public:
  Register(History& history, const Scheduler& scheduler, bool fencing)
      : history_(history), scheduler_(scheduler), fencing_(fencing) {}

  RegisterRead read(int process);
  // Returns whether the write was accepted.
  bool write(int process, std::int64_t value, std::int64_t read_version, std::int64_t fencing_token);

  std::int64_t value() const { return value_; }
  std::int64_t version() const { return version_; }

 private:
  History& history_;
  const Scheduler& scheduler_;
  bool fencing_;
  std::int64_t value_ = 0;
  std::int64_t version_ = 0;
  std::int64_t highest_fencing_ = 0;
};

}  // namespace lockcheck::sim
