#include "workload/op_lines.hpp"

namespace lockcheck::sim {

Json op_fields(OpLog& log, int process, const char* type, const char* f, const std::string& key, int thread) {
  Json fields{{"type", type}, {"process", process}, {"f", f}, {"key", key}, {"local", log.local_us()}};
  if (thread > 0) fields["thread"] = thread;
  return fields;
}

void add_lease(OpLog& log, Json& fields, const Lease& lease) {
  fields["token"] = lease.token;
  fields["valid_until"] = log.true_time_of(lease.valid_until);
  fields["valid_until_local"] = log.local_of(lease.valid_until);
  fields["fencing"] = lease.fencing_token;
}

}  // namespace lockcheck::sim
