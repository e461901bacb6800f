#include "core/resource.hpp"

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

Json resource_read_fields(int process, const RegisterRead& read, Fencing fencing, std::int64_t fencing_token) {
  Json fields{{"process", process}, {"f", "read"}, {"value", read.value}, {"version", read.version}};
  if (fencing == Fencing::reads_and_writes) {
    fields["fencing"] = fencing_token;
    fields["accepted"] = read.accepted;
  }
  return fields;
}

Json resource_write_fields(int process, std::int64_t value, std::int64_t read_version, std::int64_t version,
                           std::int64_t fencing_token, bool accepted, bool stale) {
  return Json{{"process", process}, {"f", "write"}, {"value", value}, {"read_version", read_version},
              {"version", version}, {"fencing", fencing_token}, {"accepted", accepted}, {"stale", stale}};
}

namespace {

// One of several threads sharing the process's lock object (WorkloadConfig::threads_per_process) says which.
Json with_thread(Json fields, int thread) {
  if (thread > 0) fields["thread"] = thread;
  return fields;
}

}  // namespace

RegisterRead Register::read(int process, std::int64_t fencing_token, int thread) {
  RegisterRead read{value_, version_, true};
  if (!fencing_accepts_read(fencing_, fencing_token, highest_fencing_)) {
    read = RegisterRead{0, version_, false};  // a rejected read returns no value
  } else if (fencing_ == Fencing::reads_and_writes && fencing_token > highest_fencing_) {
    highest_fencing_ = fencing_token;
  }
  history_.record(scheduler_.now(), "resource",
                  with_thread(resource_read_fields(process, read, fencing_, fencing_token), thread));
  return read;
}

bool Register::write(int process, std::int64_t value, std::int64_t read_version, std::int64_t fencing_token,
                     int thread) {
  const bool stale = read_version != version_;
  const bool accepted = fencing_accepts_write(fencing_, fencing_token, highest_fencing_);
  if (accepted) {
    value_ = value;
    ++version_;
    if (fencing_token > highest_fencing_) highest_fencing_ = fencing_token;
  }
  history_.record(scheduler_.now(), "resource",
                  with_thread(resource_write_fields(process, value, read_version, version_, fencing_token, accepted, stale),
                              thread));
  return accepted;
}

}  // namespace lockcheck::sim
