// lockcheck_redis_worker: one client process of a redis-backend run. It runs the library's real lock
// variant over HiredisPort (through RoutingPort), the same workload as sim/core/workload.cpp (acquire,
// read the resource, hold, write it back, release, think), and appends one history record per line to its
// output file with times from CLOCK_MONOTONIC relative to the run's start, which every process shares.
// Each record is written with one write(2), so a SIGKILL (a client crash) never leaves half a line.
// The run starts it (redis_run.cpp); it is not meant to be started by hand.
#include <CLI/CLI.hpp>
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "client_clock.hpp"
#include "core/prng.hpp"
#include "record_sink.hpp"
#include "lockcheck/clock.hpp"
#include "lockcheck/entropy.hpp"
#include "lockcheck/variants/registry.hpp"
#include "resource_client.hpp"
#include "routing_port.hpp"
#include "scenario/scenario.hpp"

namespace {

using namespace lockcheck;
using namespace lockcheck::redis_backend;

class Recorder {
 public:
  Recorder(const std::string& path, std::int64_t start_ns, int process, const ClientClockState& clock)
      : fd_(open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600)), time_(start_ns), process_(process), clock_(clock) {
    if (fd_ < 0) throw std::runtime_error("cannot open " + path);
  }
  ~Recorder() { close(fd_); }

  // The run's true time: every process reads the same CLOCK_MONOTONIC.
  std::int64_t now_us() const { return time_.now_us(); }
  // Both relative to the run's start: `local` on this process's own (maybe skewed) monotonic clock.
  std::int64_t local_us() const { return (clock_.local_at(monotonic_ns()) - time_.start_ns()) / 1000; }
  std::int64_t local_of(MonoTime mono) const { return mono.count() - time_.start_ns() / 1000; }
  std::int64_t true_time_of(MonoTime mono) const { return (clock_.true_time_of(mono.count() * 1000) - time_.start_ns()) / 1000; }

  Json op(const char* type, const char* f, const std::string& key) const {
    return Json{{"type", type}, {"process", process_}, {"f", f}, {"key", key}, {"local", local_us()}};
  }
  void record(const char* kind, const Json& fields) {
    Json line{{"t", now_us()}, {"kind", kind}};
    for (const auto& [name, value] : fields.items()) line[name] = value;
    const std::string text = line.dump() + "\n";
    if (::write(fd_, text.data(), text.size()) != static_cast<ssize_t>(text.size())) {
      throw std::runtime_error("cannot write the worker's history");
    }
  }

 private:
  int fd_;
  TimeBase time_;
  int process_;
  const ClientClockState& clock_;
};

void run_workload(const sim::SimConfig& config, int process, LockAlgorithm& lock, Clock& clock, ResourceClient& resource,
                  Recorder& out, sim::Prng& prng, std::int64_t end_us) {
  const sim::WorkloadConfig& workload = config.workload;
  const std::string& key = workload.key;
  for (std::uint32_t round = 0; round < workload.max_acquires_per_client && out.now_us() < end_us; ++round) {
    out.record("op", out.op("invoke", "acquire", key));
    AcquireResult acquired = run_sync(lock.acquire(key, Micros(workload.wait_us)));
    if (acquired.status != AcquireStatus::acquired) {
      Json fields = out.op(acquired.status == AcquireStatus::unknown ? "info" : "fail", "acquire", key);
      fields["detail"] = acquired.detail;
      out.record("op", fields);
    } else {
      Lease lease = std::move(*acquired.lease);
      Json fields = out.op("ok", "acquire", key);
      fields["token"] = lease.token;
      fields["valid_until"] = out.true_time_of(lease.valid_until);
      fields["valid_until_local"] = out.local_of(lease.valid_until);
      fields["fencing"] = lease.fencing_token;
      out.record("op", fields);

      const ResourceRead read = resource.read();
      out.record("resource", Json{{"process", process}, {"f", "read"}, {"value", read.value}, {"version", read.version}});
      run_sync(clock.sleep(Micros(prng.between(workload.hold_min_us, workload.hold_max_us))));
      const ResourceWrite wrote = resource.write(read.value + 1, read.version, lease.fencing_token);
      out.record("resource", Json{{"process", process}, {"f", "write"}, {"value", read.value + 1},
                                  {"read_version", read.version}, {"version", wrote.version},
                                  {"fencing", lease.fencing_token}, {"accepted", wrote.accepted}, {"stale", wrote.stale}});

      Json invoke = out.op("invoke", "release", key);
      invoke["token"] = lease.token;
      out.record("op", invoke);
      const ReleaseStatus released = run_sync(lock.release(lease));
      Json done = out.op(released == ReleaseStatus::unknown ? "info" : "ok", "release", key);
      done["token"] = lease.token;
      done["result"] = to_string(released);
      out.record("op", done);
    }
    run_sync(clock.sleep(Micros(prng.between(workload.think_min_us, workload.think_max_us))));
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"lockcheck_redis_worker: one client process of a lockcheck run on real Redis"};
  std::string scenario_path, routing_path, clock_path, out_path;
  int process = 0, services = 1, resource_port = 0;
  std::int64_t start_ns = 0, end_us = 0;
  std::uint64_t seed = 1, incarnation = 0;
  app.add_option("--scenario", scenario_path)->required();
  app.add_option("--process", process)->required();
  app.add_option("--services", services)->required();
  app.add_option("--routing", routing_path)->required();
  app.add_option("--clock", clock_path, "This process's ClientClockState file")->required();
  app.add_option("--resource-port", resource_port)->required();
  app.add_option("--start-ns", start_ns)->required();
  app.add_option("--end-us", end_us)->required();
  app.add_option("--seed", seed)->required();
  app.add_option("--incarnation", incarnation, "How many times this process restarted: varies its draws");
  app.add_option("--out", out_path)->required();
  CLI11_PARSE(app, argc, argv);
  try {
    const sim::Scenario scenario = sim::load_scenario(scenario_path);
    const sim::SimConfig& config = scenario.config;
    redis_backend::RoutingTable table(routing_path, false);
    const Millis timeout(std::max<std::int64_t>(1, config.command_timeout_us / 1000));
    redis_backend::RoutingPort port(table, process, services, timeout);
    ClientClockState clock_state(clock_path, false);
    ClientClock clock(clock_state);
    OsEntropy entropy;
    auto lock = make_lock(config.variant, port, clock, entropy, config.lock, VariantParams{config.scripts});
    redis_backend::ResourceClient resource(resource_port, config.workload.fencing);
    Recorder out(out_path, start_ns, process, clock_state);
    sim::Prng prng(sim::derive_seed(seed, "client/" + std::to_string(process) + "/" + std::to_string(incarnation)));
    run_workload(config, process, *lock, clock, resource, out, prng, end_us);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "lockcheck_redis_worker %d: %s\n", process, error.what());
    return 3;
  }
  return 0;
}
