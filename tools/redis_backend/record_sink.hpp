#pragma once
// Where the run's own records go (meta, faults, server facts) before they are merged with the workers'
// records into one history. Thread-safe: node observers record from their threads.
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lockcheck::redis_backend {

using Json = nlohmann::ordered_json;

struct Record {
  std::int64_t t_us = 0;
  std::string kind;  // meta, op, resource, fault, server
  Json fields;       // everything after "i", "t", "kind", in order
};

// CLOCK_MONOTONIC in nanoseconds: one clock for every process of a run (and for the clock shim's drift).
std::int64_t monotonic_ns();

// The run's true time: microseconds of CLOCK_MONOTONIC since the run's start (shared by every process).
class TimeBase {
 public:
  TimeBase();  // starts now
  explicit TimeBase(std::int64_t start_ns) : start_ns_(start_ns) {}
  std::int64_t start_ns() const { return start_ns_; }
  std::int64_t now_us() const;

 private:
  std::int64_t start_ns_;
};

class RecordSink {
 public:
  void add(std::int64_t t_us, const char* kind, Json fields);
  std::vector<Record> take();

 private:
  std::mutex mutex_;
  std::vector<Record> records_;
};

}  // namespace lockcheck::redis_backend
