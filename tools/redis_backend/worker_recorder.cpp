#include "worker_recorder.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <stdexcept>

#include "model/renew_op.hpp"

namespace lockcheck::redis_backend {

WorkerRecorder::WorkerRecorder(const std::string& path, std::int64_t start_ns, int process, const ClientClockState& clock)
    : fd_(open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600)), time_(start_ns), process_(process), clock_(clock) {
  if (fd_ < 0) throw std::runtime_error("cannot open " + path);
}

WorkerRecorder::~WorkerRecorder() { close(fd_); }

std::int64_t WorkerRecorder::local_us() { return (clock_.local_at(monotonic_ns()) - time_.start_ns()) / 1000; }

std::int64_t WorkerRecorder::true_time_of(MonoTime mono) {
  return (clock_.true_time_of(mono.count() * 1000) - time_.start_ns()) / 1000;
}

void WorkerRecorder::record_renewal(const RenewalEvent& event) {
  record("op", sim::renew_op_fields(event, process_, local_us(), true_time_of(event.valid_until), local_of(event.valid_until)));
}

void WorkerRecorder::record(sim::HistoryLine&& line) { write_line(std::move(line).unnumbered() + "\n"); }

void WorkerRecorder::record(const char* kind, const Json& fields) {
  Json line{{"t", now_us()}, {"kind", kind}};
  for (const auto& [name, value] : fields.items()) line[name] = value;
  write_line(line.dump() + "\n");
}

void WorkerRecorder::write_line(const std::string& text) {
  if (::write(fd_, text.data(), text.size()) != static_cast<ssize_t>(text.size())) {
    throw std::runtime_error("cannot write the worker's history");
  }
}

}  // namespace lockcheck::redis_backend
