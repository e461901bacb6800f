#pragma once
// The protected register's rules and history lines, shared by the simulator's Register (sim/core/resource.hpp)
// and the redis backend's resource server (tools/redis_backend/resource_client.cpp keeps the same rule in Lua).
#include <cstdint>

#include "model/history.hpp"
#include "model/workload_config.hpp"

namespace lockcheck::sim {

struct RegisterRead {
  std::int64_t value = 0;
  std::int64_t version = 0;
  bool accepted = true;  // false: a read with a stale fencing token (Fencing::reads_and_writes); no value
};

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

// The same fields added to a line the simulator records as it decides.
void add_resource_read_fields(HistoryLine& line, int process, const RegisterRead& read, Fencing fencing,
                              std::int64_t fencing_token, int thread);
void add_resource_write_fields(HistoryLine& line, int process, std::int64_t value, std::int64_t read_version,
                               std::int64_t version, std::int64_t fencing_token, bool accepted, bool stale, int thread);

}  // namespace lockcheck::sim
