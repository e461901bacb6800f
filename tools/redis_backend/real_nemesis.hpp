#pragma once
// The real backend's Nemesis: each fault made real on redis-server processes, worker processes and the
// fault proxies. The dispatcher (sim/nemesis) validates a fault and composes its line, as for the simulator.
#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <vector>

#include "client_clock.hpp"
#include "nemesis/nemesis.hpp"
#include "record_sink.hpp"
#include "topology.hpp"
#include "workers.hpp"

namespace lockcheck::redis_backend {

class RealNemesis final : public sim::Nemesis {
 public:
  // Runs `action` at run time `at_us` (the run's own action queue: real time, in order).
  using Schedule = std::function<void(std::int64_t at_us, std::function<void()> action)>;

  RealNemesis(const TimeBase& time, RecordSink& sink, Topology& topology, int nodes, Schedule schedule)
      : time_(time), sink_(sink), topology_(topology), nodes_(nodes), schedule_(std::move(schedule)) {}
  // The worker processes and their clocks exist once the run starts.
  void attach(Workers& workers, std::vector<std::unique_ptr<ClientClockState>>& client_clocks) {
    workers_ = &workers;
    client_clocks_ = &client_clocks;
  }

  // Stopped by a pause fault that has not ended yet.
  bool paused(int process) const { return paused_.count(process) > 0; }
  int process_count() const override { return workers_ ? workers_->count() : 0; }
  int node_count() const override { return nodes_; }
  void write_fault_line(sim::Json line) override;
  void carry_out(const sim::FaultSpec& fault, sim::FaultLine& line) override;

 private:
  struct Faults;  // what each kind of fault does (real_nemesis.cpp)

  const TimeBase& time_;
  RecordSink& sink_;
  Topology& topology_;
  int nodes_;
  Schedule schedule_;
  Workers* workers_ = nullptr;
  std::vector<std::unique_ptr<ClientClockState>>* client_clocks_ = nullptr;
  std::set<int> paused_;
  std::set<int> down_;
};

// The fault kinds the real backend can make real (`split_brain` with a [cluster] or a [sentinel] only).
bool real_backend_supports(sim::FaultKind kind);

}  // namespace lockcheck::redis_backend
