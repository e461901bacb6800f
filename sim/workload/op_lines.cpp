#include "workload/op_lines.hpp"

namespace lockcheck::sim {

HistoryLine op_fields(OpLog& log, int process, const char* type, const char* f, const std::string& key, int thread) {
  HistoryLine fields(log.now_us(), "op");
  fields.add("type", type).add("process", process).add("f", f).add("key", key).add("local", log.local_us());
  if (thread > 0) fields.add("thread", thread);
  return fields;
}

void add_lease(OpLog& log, HistoryLine& fields, const Lease& lease, std::uint32_t attempts) {
  fields.add("token", lease.token);
  fields.add("valid_until", log.true_time_of(lease.valid_until));
  fields.add("valid_until_local", log.local_of(lease.valid_until));
  fields.add("fencing", lease.fencing_token);
  if (attempts > 1) fields.add("attempts", attempts);
}

}  // namespace lockcheck::sim
