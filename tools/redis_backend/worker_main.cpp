// lockcheck_redis_worker: one client process of a redis-backend run. It runs the library's real lock
// variant over HiredisPort (through RoutingPort), the same workload as sim/core/workload.cpp (acquire,
// read the resource, hold, write it back, release, think; nested acquires, readers and the careful holder
// when the scenario asks), and appends one history record per line to its output file with times from
// CLOCK_MONOTONIC relative to the run's start, which every process shares. With threads_per_process N > 1
// it runs N std::threads, each that workload, sharing ONE lock object of the variant's public type (the
// OwnedLock core as public_types.hpp configures it), as a service's threads share one Mutex.
// Each record is written with one write(2), so a SIGKILL (a client crash) never leaves half a line.
// The run starts it (redis_run.cpp); it is not meant to be started by hand.
#include <CLI/CLI.hpp>
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <mutex>
#include <optional>
#include <thread>
#include <nlohmann/json.hpp>

#include "attribution.hpp"
#include "client_clock.hpp"
#include "core/careful_write.hpp"
#include "core/prng.hpp"
#include "core/renew_op.hpp"
#include "core/thread_lock.hpp"
#include "record_sink.hpp"
#include "lockcheck/clock.hpp"
#include "lockcheck/cluster_port.hpp"
#include "lockcheck/entropy.hpp"
#include "lockcheck/errors.hpp"
#include "lockcheck/public_types.hpp"
#include "lockcheck/sentinel_port.hpp"
#include "lockcheck/thread_spawner.hpp"
#include "lockcheck/variants/registry.hpp"
#include "resource_client.hpp"
#include "routing_port.hpp"
#include "worker_config.hpp"

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

  void record_lease(Json& fields, const Lease& lease) const {
    fields["token"] = lease.token;
    fields["valid_until"] = true_time_of(lease.valid_until);
    fields["valid_until_local"] = local_of(lease.valid_until);
    fields["fencing"] = lease.fencing_token;
  }
  // `thread` > 0: which of the worker's threads sharing one lock object (the line's "thread").
  Json op(const char* type, const char* f, const std::string& key, int thread = 0) const {
    Json fields{{"type", type}, {"process", process_}, {"f", f}, {"key", key}, {"local", local_us()}};
    if (thread > 0) fields["thread"] = thread;
    return fields;
  }
  Json resource(Json fields, int thread) const {
    if (thread > 0) fields["thread"] = thread;
    return fields;
  }
  // A renewing variant's background renewal, as renew ops (the simulator's World::record_renewal).
  void record_renewal(const RenewalEvent& event) {
    record("op", sim::renew_op_fields(event, process_, local_us(), true_time_of(event.valid_until),
                                      local_of(event.valid_until)));
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

// A nested acquire of the key the process already holds, its inner hold and its inner release, each op line
// marked "nested":true, as sim/core/workload.cpp does.
void run_nested(const sim::WorkloadConfig& workload, LockAlgorithm& lock, Clock& clock, Recorder& out, sim::Prng& prng) {
  auto nested_op = [&](const char* type, const char* f) {
    Json fields = out.op(type, f, workload.key);
    fields["nested"] = true;
    return fields;
  };
  out.record("op", nested_op("invoke", "acquire"));
  AcquireResult acquired = workload.nested_ttl_us > 0
                               ? run_sync(lock.acquire_with_ttl(workload.key, Micros(workload.wait_us), Millis(workload.nested_ttl_us / 1000)))
                               : run_sync(lock.acquire(workload.key, Micros(workload.wait_us)));
  if (acquired.status != AcquireStatus::acquired) {
    Json fields = nested_op(acquired.status == AcquireStatus::unknown ? "info" : "fail", "acquire");
    fields["detail"] = acquired.detail;
    out.record("op", fields);
    return;
  }
  Lease lease = std::move(*acquired.lease);
  Json fields = nested_op("ok", "acquire");
  out.record_lease(fields, lease);
  out.record("op", fields);
  run_sync(clock.sleep(Micros(prng.between(workload.nested_hold_min_us, workload.nested_hold_max_us))));
  Json invoke = nested_op("invoke", "release");
  invoke["token"] = lease.token;
  out.record("op", invoke);
  const ReleaseStatus released = run_sync(lock.release(lease));
  Json done = nested_op(released == ReleaseStatus::unknown ? "info" : "ok", "release");
  done["token"] = lease.token;
  done["result"] = to_string(released);
  out.record("op", done);
}

void run_workload(const sim::SimConfig& config, int process, sim::ThreadLock lock, Clock& clock,
                  ResourceClient& resource, Recorder& out, sim::Prng& prng, std::int64_t end_us) {
  const sim::WorkloadConfig& workload = config.workload;
  const std::string& key = workload.key;
  std::uint32_t outer_acquires = 0;
  for (std::uint32_t round = 0; round < workload.max_acquires_per_client && out.now_us() < end_us; ++round) {
    const bool reader = workload.readers_ppm > 0 && prng.chance_ppm(workload.readers_ppm);
    auto op = [&](const char* type, const char* f) {
      Json fields = out.op(type, f, key, lock.thread());
      if (reader) fields["mode"] = "read";
      return fields;
    };
    out.record("op", op("invoke", "acquire"));
    AcquireResult acquired;
    try {
      acquired = run_sync(lock.acquire(key, Micros(workload.wait_us), reader));
    } catch (const RedisError& error) {
      // The server refuses the lock's commands (CROSSSLOT on a cluster, ...): that is the outcome, retrying
      // cannot help, and this client stops, as sim/core/workload.cpp does.
      Json fields = op("fail", "acquire");
      fields["detail"] = error.what();
      fields["error"] = true;
      out.record("op", fields);
      return;
    }
    if (acquired.status != AcquireStatus::acquired) {
      Json fields = op(acquired.status == AcquireStatus::unknown ? "info" : "fail", "acquire");
      fields["detail"] = acquired.detail;
      out.record("op", fields);
    } else {
      Lease lease = std::move(*acquired.lease);
      Json fields = op("ok", "acquire");
      out.record_lease(fields, lease);
      out.record("op", fields);

      const ResourceRead read = resource.read(lease.fencing_token);
      out.record("resource", out.resource(sim::resource_read_fields(process, read, resource.fencing(), lease.fencing_token),
                                          lock.thread()));
      // Nesting runs with one thread per process only (the scenario reader refuses it with threads).
      if (!reader && lock.variant != nullptr && workload.nest_every > 0 && ++outer_acquires % workload.nest_every == 0) {
        run_nested(workload, *lock.variant, clock, out, prng);
      }
      run_sync(clock.sleep(Micros(prng.between(workload.hold_min_us, workload.hold_max_us))));
      std::string skipped_write;
      if (!reader && !read.accepted) skipped_write = sim::kReadRejected;
      if (!reader && skipped_write.empty() && workload.check_lease_before_write) {
        skipped_write = sim::careful_write_refusal(workload, lock.current(lease));
      }
      if (!reader && skipped_write.empty()) {
        const std::int64_t latency_us = sim::draw_write_latency_us(workload, prng);
        if (latency_us > 0) run_sync(clock.sleep(Micros(latency_us)));
        const ResourceWrite wrote = resource.write(read.value + 1, read.version, lease.fencing_token);
        out.record("resource", out.resource(sim::resource_write_fields(process, read.value + 1, read.version, wrote.version,
                                                                       lease.fencing_token, wrote.accepted, wrote.stale),
                                            lock.thread()));
      }

      Json invoke = op("invoke", "release");
      invoke["token"] = lease.token;
      if (!skipped_write.empty()) invoke["skipped_write"] = skipped_write;
      out.record("op", invoke);
      ReleaseStatus released = ReleaseStatus::unknown;
      try {
        released = run_sync(lock.release(lease, reader));
      } catch (const RedisError& error) {
        Json failed = op("fail", "release");
        failed["token"] = lease.token;
        failed["detail"] = error.what();
        failed["error"] = true;
        out.record("op", failed);
        return;
      }
      Json done = op(released == ReleaseStatus::unknown ? "info" : "ok", "release");
      done["token"] = lease.token;
      done["result"] = to_string(released);
      out.record("op", done);
    }
    run_sync(clock.sleep(Micros(prng.between(workload.think_min_us, workload.think_max_us))));
  }
}

// N threads sharing one public lock object; each with its own resource connection and draws.
void run_threads(const sim::SimConfig& config, int process, LockAlgorithm& variant, Clock& clock, int resource_port,
                 Recorder& out, std::uint64_t seed, const std::string& prng_name, std::int64_t end_us) {
  const PublicType* type = public_type_of(config.variant);
  if (type == nullptr) throw std::invalid_argument("threads_per_process > 1 needs a variant with a public lock type");
  OwnedLock shared(variant, clock, config.workload.key, type->owned);
  std::vector<std::thread> threads;
  std::mutex failure_mutex;
  std::string failure;
  for (OwnerId thread = 1; thread <= config.workload.threads_per_process; ++thread) {
    threads.emplace_back([&, thread] {
      try {
        redis_backend::ResourceClient resource(resource_port, config.workload.fencing);
        sim::Prng prng(sim::derive_seed(seed, prng_name + "/thread/" + std::to_string(thread)));
        run_workload(config, process, sim::ThreadLock{nullptr, &shared, thread}, clock, resource, out, prng, end_us);
      } catch (const std::exception& error) {
        std::lock_guard lock(failure_mutex);
        if (failure.empty()) failure = error.what();
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  if (!failure.empty()) throw std::runtime_error(failure);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"lockcheck_redis_worker: one client process of a lockcheck run on real Redis"};
  std::string config_path, routing_path, clock_path, out_path;
  int process = 0, services = 1, resource_port = 0;
  std::int64_t start_ns = 0, end_us = 0;
  std::uint64_t seed = 1, incarnation = 0;
  app.add_option("--config", config_path, "The run's worker configuration (worker_config.hpp)")->required();
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
    const sim::SimConfig config = read_worker_config(config_path);
    redis_backend::RoutingTable table(routing_path, false);
    const Millis timeout(std::max<std::int64_t>(1, config.command_timeout_us / 1000));
    redis_backend::RoutingPort port(table, process, services, timeout, worker_client_name(process, incarnation));
    ClientClockState clock_state(clock_path, false);
    ClientClock clock(clock_state);
    OsEntropy entropy;
    Recorder out(out_path, start_ns, process, clock_state);
    ThreadSpawner spawner;
    std::mutex out_mutex;  // the renewal thread records beside the workload
    VariantParams params{config.scripts};
    params.token_wait = config.token_wait;
    params.spawner = &spawner;
    params.watchdog.renew_divisor = config.renewal.renew_divisor;
    params.watchdog.max_renewals = config.renewal.max_renewals;
    params.watchdog.max_hold = Millis(config.renewal.max_hold_us / 1000);
    params.watchdog.observer = [&](const RenewalEvent& event) {
      std::lock_guard lock(out_mutex);
      out.record_renewal(event);
    };
    params.wrap_in_watchdog = config.renewal.watchdog;
    // On a cluster the lock sees one node: the library's ClusterPort, routing by slot over every node's link.
    // On a [sentinel] too: the library's SentinelPort, over the links to the data nodes and the sentinels.
    const std::vector<std::string> addresses = read_cluster_addresses(config_path);
    std::optional<ClusterPort> cluster;
    std::optional<SentinelPort> sentinel;
    if (config.sentinel.sentinels > 0) {
      std::vector<std::size_t> sentinels;
      for (std::size_t k = 0; k < static_cast<std::size_t>(config.sentinel.sentinels); ++k) {
        sentinels.push_back(addresses.size() - static_cast<std::size_t>(config.sentinel.sentinels) + k);
      }
      sentinel.emplace(port, addresses, std::move(sentinels), config.sentinel.master_name);
    } else if (!addresses.empty()) {
      cluster.emplace(port, clock, addresses);
    }
    Port& lock_port = cluster ? static_cast<Port&>(*cluster) : sentinel ? static_cast<Port&>(*sentinel) : port;
    auto lock = make_lock(config.variant, lock_port, clock, entropy, config.lock, params);
    const std::string prng_name = "client/" + std::to_string(process) + "/" + std::to_string(incarnation);
    if (config.workload.threads_per_process > 1) {
      run_threads(config, process, *lock, clock, resource_port, out, seed, prng_name, end_us);
    } else {
      redis_backend::ResourceClient resource(resource_port, config.workload.fencing);
      sim::Prng prng(sim::derive_seed(seed, prng_name));
      run_workload(config, process, sim::ThreadLock{lock.get()}, clock, resource, out, prng, end_us);
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "lockcheck_redis_worker %d: %s\n", process, error.what());
    return 3;
  }
  return 0;
}
