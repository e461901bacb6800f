#include "model/resource_lines.hpp"

#include "model/json_fields.hpp"

namespace lockcheck::sim {

const char* to_string(Fencing fencing) {
  switch (fencing) {
    case Fencing::off: return "off";
    case Fencing::writes: return "writes";
    case Fencing::reads_and_writes: return "reads-and-writes";
  }
  return "off";
}

bool fencing_accepts_read(Fencing fencing, std::int64_t token, std::int64_t highest) {
  return fencing != Fencing::reads_and_writes || token >= highest;
}

bool fencing_accepts_write(Fencing fencing, std::int64_t token, std::int64_t highest) {
  return fencing == Fencing::off || token >= highest;
}

namespace {

// The fields of a read line and of a write line, written once for both outputs: a HistoryLine (the
// simulator's register, on every access) or a Json object (the redis backend's workers).
// `thread` > 0: one of several threads sharing the process's lock object (threads_per_process) says which.
template <typename Out>
void read_fields(Out& out, int process, const RegisterRead& read, Fencing fencing, std::int64_t fencing_token,
                 int thread) {
  out.add("process", process).add("f", "read").add("value", read.value).add("version", read.version);
  if (fencing == Fencing::reads_and_writes) out.add("fencing", fencing_token).add("accepted", read.accepted);
  if (thread > 0) out.add("thread", thread);
}

template <typename Out>
void write_fields(Out& out, int process, std::int64_t value, std::int64_t read_version, std::int64_t version,
                  std::int64_t fencing_token, bool accepted, bool stale, int thread) {
  out.add("process", process).add("f", "write").add("value", value).add("read_version", read_version);
  out.add("version", version).add("fencing", fencing_token).add("accepted", accepted).add("stale", stale);
  if (thread > 0) out.add("thread", thread);
}

}  // namespace

Json resource_read_fields(int process, const RegisterRead& read, Fencing fencing, std::int64_t fencing_token, int thread) {
  JsonFields fields;
  read_fields(fields, process, read, fencing, fencing_token, thread);
  return std::move(fields.json);
}

Json resource_write_fields(int process, std::int64_t value, std::int64_t read_version, std::int64_t version,
                           std::int64_t fencing_token, bool accepted, bool stale, int thread) {
  JsonFields fields;
  write_fields(fields, process, value, read_version, version, fencing_token, accepted, stale, thread);
  return std::move(fields.json);
}

void add_resource_read_fields(HistoryLine& line, int process, const RegisterRead& read, Fencing fencing,
                              std::int64_t fencing_token, int thread) {
  read_fields(line, process, read, fencing, fencing_token, thread);
}

void add_resource_write_fields(HistoryLine& line, int process, std::int64_t value, std::int64_t read_version,
                               std::int64_t version, std::int64_t fencing_token, bool accepted, bool stale, int thread) {
  write_fields(line, process, value, read_version, version, fencing_token, accepted, stale, thread);
}

}  // namespace lockcheck::sim
