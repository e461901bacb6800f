#include "core/resource.hpp"

#include "lockcheck/assert.hpp"

namespace lockcheck::sim {

RegisterRead Register::read(int process, std::int64_t fencing_token, int thread) {
  LOCKCHECK_ASSERT(process >= 0 && thread >= 0);  // an access names the process (and thread) that made it
  RegisterRead read{value_, version_, true};
  if (!fencing_accepts_read(fencing_, fencing_token, highest_fencing_)) {
    read = RegisterRead{0, version_, false};  // a rejected read returns no value
  } else if (fencing_ == Fencing::reads_and_writes && fencing_token > highest_fencing_) {
    highest_fencing_ = fencing_token;
  }
  HistoryLine line(scheduler_.now(), "resource");
  add_resource_read_fields(line, process, read, fencing_, fencing_token, thread);
  history_.record(std::move(line));
  return read;
}

bool Register::write(int process, std::int64_t value, std::int64_t read_version, std::int64_t fencing_token,
                     int thread) {
  // A writer read the version it names: the register never handed out a version it has not reached.
  LOCKCHECK_ASSERT(process >= 0 && thread >= 0 && read_version >= 0 && read_version <= version_);
  const bool stale = read_version != version_;
  const bool accepted = fencing_accepts_write(fencing_, fencing_token, highest_fencing_);
  if (accepted) {
    value_ = value;
    ++version_;
    if (fencing_token > highest_fencing_) highest_fencing_ = fencing_token;
  }
  HistoryLine line(scheduler_.now(), "resource");
  add_resource_write_fields(line, process, value, read_version, version_, fencing_token, accepted, stale, thread);
  history_.record(std::move(line));
  return accepted;
}

}  // namespace lockcheck::sim
