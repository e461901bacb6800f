// The client workload: acquire, read the resource, hold, write it back, release, think; until the run ends.
// By default the write does not re-check the lease first: a process that paused right after such a check
// would write anyway, and a pause can only land on an await here, so checking would hide Kleppmann's case
// (F4). The careful holder (check_lease_before_write) checks, and its write takes write_latency_*_us to
// land: the await where a pause after the check still breaks it.
// With threads_per_process > 1 the process runs that many such loops as threads (coroutines) sharing ONE lock
// object of the variant's public type, its OwnedLock core configured as the type configures it: the layer
// users call, per-thread ownership included, rather than the raw variant.
#include "core/careful_write.hpp"
#include "core/world.hpp"
#include "lockcheck/errors.hpp"
#include "core/thread_lock.hpp"
#include "lockcheck/owned_lock.hpp"
#include "lockcheck/public_types.hpp"

namespace lockcheck::sim {
namespace {

// An op line as of now, written as text (HistoryLine): the workload records several per acquire.
HistoryLine op_fields(ClientProcess& process, const char* type, const char* f, const std::string& key, int thread = 0) {
  HistoryLine fields(process.world().scheduler().now(), "op");
  fields.add("type", type).add("process", process.id()).add("f", f).add("key", key).add("local", process.local_now());
  if (thread > 0) fields.add("thread", thread);
  return fields;
}

void record_lease(ClientProcess& process, HistoryLine& fields, const Lease& lease) {
  fields.add("token", lease.token);
  fields.add("valid_until", process.clock_model().true_time_of(lease.valid_until.count()));
  fields.add("valid_until_local", lease.valid_until.count());
}

// A nested acquire of the key the process already holds, its inner hold and its inner release, each op line
// marked "nested":true. Called only when nesting is on.
Task<void> run_nested(World& world, ClientProcess& process, Prng& prng) {
  const WorkloadConfig& workload = world.config().workload;
  History& history = world.history();
  auto nested_op = [&](const char* type, const char* f) {
    HistoryLine fields = op_fields(process, type, f, workload.key);
    fields.add("nested", true);
    return fields;
  };
  history.record(nested_op("invoke", "acquire"));
  AcquireResult acquired;
  if (workload.nested_ttl_us > 0) {
    const Millis ttl(workload.nested_ttl_us / 1000);
    acquired = co_await process.lock().acquire_with_ttl(workload.key, Micros(workload.wait_us), ttl);
  } else {
    acquired = co_await process.lock().acquire(workload.key, Micros(workload.wait_us));
  }
  if (acquired.status != AcquireStatus::acquired) {
    HistoryLine fields = nested_op(acquired.status == AcquireStatus::unknown ? "info" : "fail", "acquire");
    fields.add("detail", acquired.detail);
    history.record(std::move(fields));
    co_return;
  }
  Lease lease = std::move(*acquired.lease);
  HistoryLine fields = nested_op("ok", "acquire");
  record_lease(process, fields, lease);
  fields.add("fencing", lease.fencing_token);
  history.record(std::move(fields));

  co_await process.clock().sleep(Micros(prng.between(workload.nested_hold_min_us, workload.nested_hold_max_us)));

  HistoryLine invoke = nested_op("invoke", "release");
  invoke.add("token", lease.token);
  history.record(std::move(invoke));
  const ReleaseStatus released = co_await process.lock().release(lease);
  HistoryLine done = nested_op(released == ReleaseStatus::unknown ? "info" : "ok", "release");
  done.add("token", lease.token);
  done.add("result", to_string(released));
  history.record(std::move(done));
}

// One thread's loop: acquire, read, hold, write, release, think; until the run ends.
Task<void> run_thread(World& world, ClientProcess& process, ThreadLock lock) {
  const SimConfig& config = world.config();
  const WorkloadConfig& workload = config.workload;
  Prng& prng = process.workload_prng();
  History& history = world.history();
  Scheduler& scheduler = world.scheduler();

  std::uint32_t outer_acquires = 0;
  for (std::uint32_t round = 0; round < workload.max_acquires_per_client && scheduler.now() < config.duration_us; ++round) {
    const bool reader = workload.readers_ppm > 0 && prng.chance_ppm(workload.readers_ppm);
    auto op = [&](const char* type, const char* f) {
      HistoryLine fields = op_fields(process, type, f, workload.key, lock.thread());
      if (reader) fields.add("mode", "read");
      return fields;
    };
    history.record(op("invoke", "acquire"));
    AcquireResult acquired;
    std::string redis_error;
    try {
      acquired = co_await lock.acquire(workload.key, Micros(workload.wait_us), reader);
    } catch (const RedisError& error) {
      redis_error = error.what();  // the server refuses the lock's commands (CROSSSLOT on a cluster, ...)
    }
    if (!redis_error.empty()) {
      // Retrying cannot help: the error is the outcome, and this client stops.
      HistoryLine fields = op("fail", "acquire");
      fields.add("detail", redis_error);
      fields.add("error", true);
      history.record(std::move(fields));
      co_return;
    }
    if (acquired.status != AcquireStatus::acquired) {
      HistoryLine fields = op(acquired.status == AcquireStatus::unknown ? "info" : "fail", "acquire");
      fields.add("detail", acquired.detail);
      history.record(std::move(fields));
    } else {
      Lease lease = std::move(*acquired.lease);
      HistoryLine fields = op("ok", "acquire");
      record_lease(process, fields, lease);
      fields.add("fencing", lease.fencing_token);
      history.record(std::move(fields));

      const RegisterRead read = world.resource().read(process.id(), lease.fencing_token, lock.thread());
      if (!reader && workload.nest_every > 0 && ++outer_acquires % workload.nest_every == 0) {
        co_await run_nested(world, process, prng);
      }
      co_await process.clock().sleep(Micros(prng.between(workload.hold_min_us, workload.hold_max_us)));
      std::string skipped_write;
      if (!reader && !read.accepted) skipped_write = kReadRejected;
      if (!reader && skipped_write.empty() && workload.check_lease_before_write) {
        skipped_write = careful_write_refusal(workload, lock.current(lease));
      }
      if (!reader && skipped_write.empty()) {
        const std::int64_t latency_us = draw_write_latency_us(workload, prng);
        if (latency_us > 0) co_await process.clock().sleep(Micros(latency_us));
        world.resource().write(process.id(), read.value + 1, read.version, lease.fencing_token, lock.thread());
      }

      HistoryLine invoke = op("invoke", "release");
      invoke.add("token", lease.token);
      if (!skipped_write.empty()) invoke.add("skipped_write", skipped_write);
      history.record(std::move(invoke));
      ReleaseStatus released = ReleaseStatus::unknown;
      try {
        released = co_await lock.release(lease, reader);
      } catch (const RedisError& error) {
        redis_error = error.what();  // CLUSTERDOWN from a master cut off from its cluster, ...
      }
      if (!redis_error.empty()) {
        HistoryLine failed = op("fail", "release");
        failed.add("token", lease.token);
        failed.add("detail", redis_error);
        failed.add("error", true);
        history.record(std::move(failed));
        co_return;
      }
      HistoryLine done = op(released == ReleaseStatus::unknown ? "info" : "ok", "release");
      done.add("token", lease.token);
      done.add("result", to_string(released));
      history.record(std::move(done));
    }
    co_await process.clock().sleep(Micros(prng.between(workload.think_min_us, workload.think_max_us)));
  }
}

}  // namespace

Task<void> run_workload(World& world, ClientProcess& process) {
  const SimConfig& config = world.config();
  const std::uint32_t threads = config.workload.threads_per_process;
  if (threads <= 1) {
    co_await run_thread(world, process, ThreadLock{&process.lock()});
    co_return;
  }
  // World::start_client refused a variant without one.
  const PublicType& type = *public_type_of(config.variant);
  // In this frame: a crash destroys the spawned threads first (ClientProcess::crash), then this frame.
  OwnedLock shared(process.lock(), process.clock(), config.workload.key, type.owned);
  std::vector<std::shared_ptr<Spawned>> others;
  for (OwnerId thread = 2; thread <= threads; ++thread) {
    others.push_back(process.spawn(run_thread(world, process, ThreadLock{nullptr, &shared, thread})));
  }
  co_await run_thread(world, process, ThreadLock{nullptr, &shared, 1});
  for (const std::shared_ptr<Spawned>& other : others) co_await other->join();
}

}  // namespace lockcheck::sim
