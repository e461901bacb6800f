#include "record_sink.hpp"

#include <time.h>

namespace lockcheck::redis_backend {

std::int64_t monotonic_ns() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

TimeBase::TimeBase() : start_ns_(monotonic_ns()) {}

std::int64_t TimeBase::now_us() const { return (monotonic_ns() - start_ns_) / 1000; }

void RecordSink::add(std::int64_t t_us, const char* kind, Json fields) {
  std::lock_guard lock(mutex_);
  records_.push_back(Record{t_us, kind, std::move(fields)});
}

std::vector<Record> RecordSink::take() {
  std::lock_guard lock(mutex_);
  return std::exchange(records_, {});
}

}  // namespace lockcheck::redis_backend
