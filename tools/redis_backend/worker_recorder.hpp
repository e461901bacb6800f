#pragma once
// A worker's history sink: one record per line appended to its output file with times from CLOCK_MONOTONIC
// relative to the run's start, which every process shares; the run merges the files into one history. Each
// record is written with one write(2) on an O_APPEND file, so a SIGKILL (a client crash) never leaves half a
// line, and threads may record at once.
#include <cstdint>
#include <string>

#include "client_clock.hpp"
#include "lockcheck/variants/watchdog_lock.hpp"
#include "record_sink.hpp"
#include "workload/op_log.hpp"

namespace lockcheck::redis_backend {

class WorkerRecorder final : public sim::OpLog {
 public:
  WorkerRecorder(const std::string& path, std::int64_t start_ns, int process, const ClientClockState& clock);
  ~WorkerRecorder() override;
  WorkerRecorder(const WorkerRecorder&) = delete;
  WorkerRecorder& operator=(const WorkerRecorder&) = delete;

  // The run's time 0, when it is told after the recorder was made (start_gate.hpp); nothing recorded before.
  void start_at(std::int64_t start_ns) { time_ = TimeBase(start_ns); }
  // The run's true time: every process reads the same CLOCK_MONOTONIC.
  std::int64_t now_us() override { return time_.now_us(); }
  // Both relative to the run's start: `local` on this process's own (maybe skewed) monotonic clock.
  std::int64_t local_us() override;
  std::int64_t local_of(MonoTime mono) override { return mono.count() - time_.start_ns() / 1000; }
  std::int64_t true_time_of(MonoTime mono) override;
  void record(sim::HistoryLine&& line) override;
  void record(const char* kind, const Json& fields);  // a resource or renewal line

  // A renewing variant's background renewal, as renew ops (the simulator's World::record_renewal).
  void record_renewal(const RenewalEvent& event);

 private:
  void write_line(const std::string& text);  // one write(2)

  int fd_;
  TimeBase time_;
  int process_;
  const ClientClockState& clock_;
};

}  // namespace lockcheck::redis_backend
