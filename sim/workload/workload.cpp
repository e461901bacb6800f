// By default the write does not re-check the lease first: a process that paused right after such a check
// would write anyway, and a pause can only land on an await here, so checking would hide Kleppmann's case
// (F4). The careful holder (check_lease_before_write) checks, and its write takes write_latency_*_us to
// land: the await where a pause after the check still breaks it.
// With threads_per_process > 1 the process runs that many such loops as threads sharing ONE lock object of
// the variant's public type, its OwnedLock core configured as the type configures it: the layer users call,
// per-thread ownership included, rather than the raw variant.
#include "workload/workload.hpp"

#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "lockcheck/errors.hpp"
#include "lockcheck/public_types.hpp"
#include "lockcheck/variants/capabilities.hpp"
#include "workload/careful_write.hpp"
#include "workload/latch_workload.hpp"
#include "workload/op_lines.hpp"
#include "workload/thread_lock.hpp"

namespace lockcheck::sim {
namespace {

// What a failed acquire says of who held the lock (bounded_unavailability needs to know): "result":"unreachable"
// when no attempt got a reply, "not_refused" when none found the lock held (a late grant, WAIT, a quorum short
// of replies); else "refused_at", the true time of the last attempt that did (the fail line itself may come
// much later, after attempts that reached no node).
void add_refusal(OpLog& log, HistoryLine& fields, const AcquireResult& acquired) {
  if (acquired.status == AcquireStatus::unreachable) {
    fields.add("result", "unreachable");
  } else if (acquired.status == AcquireStatus::busy) {
    if (acquired.refused_at) {
      fields.add("refused_at", log.true_time_of(*acquired.refused_at));
    } else {
      fields.add("result", "not_refused");
    }
  }
}

// A nested acquire of the key the process already holds (on the variant itself), its inner hold and its
// inner release, each op line marked "nested":true. Called only when nesting is on.
Task<void> run_nested(const WorkloadConfig& workload, WorkloadClient& client, LockAlgorithm& lock, Prng& prng) {
  OpLog& log = client.log();
  auto nested_op = [&](const char* type, const char* f) {
    HistoryLine fields = op_fields(log, client.process(), type, f, workload.key);
    fields.add("nested", true);
    return fields;
  };
  log.record(nested_op("invoke", "acquire"));
  AcquireResult acquired;
  if (workload.nested_ttl_us > 0) {
    const Millis ttl(workload.nested_ttl_us / 1000);
    acquired = co_await lock.acquire_with_ttl(workload.key, Micros(workload.wait_us), ttl);
  } else {
    acquired = co_await lock.acquire(workload.key, Micros(workload.wait_us));
  }
  if (acquired.status != AcquireStatus::acquired) {
    HistoryLine fields = nested_op(acquired.status == AcquireStatus::unknown ? "info" : "fail", "acquire");
    fields.add("detail", acquired.detail);
    add_refusal(log, fields, acquired);
    log.record(std::move(fields));
    co_return;
  }
  Lease lease = std::move(*acquired.lease);
  HistoryLine fields = nested_op("ok", "acquire");
  add_lease(log, fields, lease, acquired.attempts);
  log.record(std::move(fields));

  co_await client.clock().sleep(Micros(prng.between(workload.nested_hold_min_us, workload.nested_hold_max_us)));

  HistoryLine invoke = nested_op("invoke", "release");
  invoke.add("token", lease.token);
  log.record(std::move(invoke));
  const ReleaseStatus released = co_await lock.release(lease);
  HistoryLine done = nested_op(released == ReleaseStatus::unknown ? "info" : "ok", "release");
  done.add("token", lease.token);
  done.add("result", to_string(released));
  log.record(std::move(done));
}

// The op lines of one round of a thread's loop: each names the thread, and a reader's round its mode.
struct RoundOps {
  OpLog& log;
  int process;
  const std::string& key;
  int thread;
  bool reader;

  HistoryLine line(const char* type, const char* f) const {
    HistoryLine fields = op_fields(log, process, type, f, key, thread);
    if (reader) fields.add("mode", "read");
    return fields;
  }
};

// A Redis error from the lock's commands (CROSSSLOT on a cluster, CLUSTERDOWN from a master cut off from its
// cluster, ...): retrying cannot help, the error is the outcome, and the thread stops after this line.
void record_redis_error(const RoundOps& ops, const char* f, const Lease* lease, const std::string& error) {
  HistoryLine fields = ops.line("fail", f);
  if (lease != nullptr) fields.add("token", lease->token);
  fields.add("detail", error);
  fields.add("error", true);
  ops.log.record(std::move(fields));
}

// An acquire that did not grant the lock: failed, or unknown ("info").
void record_acquire_failure(const RoundOps& ops, const AcquireResult& acquired) {
  HistoryLine fields = ops.line(acquired.status == AcquireStatus::unknown ? "info" : "fail", "acquire");
  fields.add("detail", acquired.detail);
  add_refusal(ops.log, fields, acquired);
  ops.log.record(std::move(fields));
}

// The read-modify-write inside the hold: the read, the hold (a nested acquire every nest_every outer ones),
// then the write, unless the round only reads, the read was rejected or the careful holder's check refuses.
// Returns why the write was skipped ("" when it was made).
Task<std::string> use_resource(const WorkloadConfig& workload, WorkloadClient& client, ThreadLock& lock,
                               ThreadSeams& seams, const Lease& lease, bool reader, std::uint32_t& outer_acquires) {
  Prng& prng = seams.prng;
  const RegisterRead read = seams.resource.read(lease.fencing_token, lock.thread());
  // Nesting is on the variant, so with one thread per process only (the scenario reader refuses it with
  // threads).
  if (!reader && lock.variant != nullptr && workload.nest_every > 0 && ++outer_acquires % workload.nest_every == 0) {
    co_await run_nested(workload, client, *lock.variant, prng);
  }
  co_await client.clock().sleep(Micros(prng.between(workload.hold_min_us, workload.hold_max_us)));
  std::string skipped_write;
  if (!reader && !read.accepted) skipped_write = kReadRejected;
  if (!reader && skipped_write.empty() && workload.check_lease_before_write) {
    skipped_write = careful_write_refusal(workload, lock.current(lease));
  }
  if (!reader && skipped_write.empty()) {
    const std::int64_t latency_us = draw_write_latency_us(workload, prng);
    if (latency_us > 0) co_await client.clock().sleep(Micros(latency_us));
    seams.resource.write(read.value + 1, read.version, lease.fencing_token, lock.thread());
  }
  co_return skipped_write;
}

// A granted acquire's line, the read-modify-write, the release and its line. False when a Redis error on the
// release ended the thread.
Task<bool> hold_and_release(const WorkloadConfig& workload, WorkloadClient& client, ThreadLock& lock,
                            ThreadSeams& seams, const RoundOps& ops, AcquireResult& acquired,
                            std::uint32_t& outer_acquires) {
  Lease lease = std::move(*acquired.lease);
  HistoryLine granted = ops.line("ok", "acquire");
  add_lease(ops.log, granted, lease, acquired.attempts);
  ops.log.record(std::move(granted));

  const std::string skipped_write = co_await use_resource(workload, client, lock, seams, lease, ops.reader, outer_acquires);

  HistoryLine invoke = ops.line("invoke", "release");
  invoke.add("token", lease.token);
  if (!skipped_write.empty()) invoke.add("skipped_write", skipped_write);
  ops.log.record(std::move(invoke));
  ReleaseStatus released = ReleaseStatus::unknown;
  std::string redis_error;
  try {
    released = co_await lock.release(lease, ops.reader);
  } catch (const RedisError& error) {
    redis_error = error.what();
  }
  if (!redis_error.empty()) {
    record_redis_error(ops, "release", &lease, redis_error);
    co_return false;
  }
  HistoryLine done = ops.line(released == ReleaseStatus::unknown ? "info" : "ok", "release");
  done.add("token", lease.token);
  done.add("result", to_string(released));
  ops.log.record(std::move(done));
  co_return true;
}

// One thread's loop: acquire, read, hold, write, release, think; until the run ends.
Task<void> run_thread(const WorkloadConfig& workload, std::int64_t end_us, WorkloadClient& client, ThreadLock lock,
                      ThreadSeams seams) {
  Prng& prng = seams.prng;
  OpLog& log = client.log();

  std::uint32_t outer_acquires = 0;
  for (std::uint32_t round = 0; round < workload.max_acquires_per_client && log.now_us() < end_us && !client.gone(); ++round) {
    const bool reader = workload.readers_ppm > 0 && prng.chance_ppm(workload.readers_ppm);
    const RoundOps ops{log, client.process(), workload.key, lock.thread(), reader};
    log.record(ops.line("invoke", "acquire"));
    AcquireResult acquired;
    std::string redis_error;
    try {
      acquired = co_await lock.acquire(workload.key, Micros(workload.wait_us), reader);
    } catch (const RedisError& error) {
      redis_error = error.what();
    }
    if (!redis_error.empty()) {
      record_redis_error(ops, "acquire", nullptr, redis_error);
      co_return;
    }
    if (acquired.status != AcquireStatus::acquired) {
      record_acquire_failure(ops, acquired);
    } else {
      const bool goes_on = co_await hold_and_release(workload, client, lock, seams, ops, acquired, outer_acquires);
      if (!goes_on) co_return;
    }
    co_await client.clock().sleep(Micros(prng.between(workload.think_min_us, workload.think_max_us)));
  }
}

// Keeps what a thread throws until every thread has finished: the threads point into the shared lock object,
// which must outlive them, and a spawned task's exception would otherwise be swallowed by the Spawner.
Task<void> keeping_failure(Task<void> thread, std::exception_ptr& failure) {
  try {
    co_await std::move(thread);
  } catch (...) {
    failure = std::current_exception();
  }
}

}  // namespace

Task<void> run_workload(const WorkloadConfig& workload, std::string_view variant, std::int64_t end_us,
                        WorkloadClient& client) {
  if (counts_down(std::string(variant))) {
    co_await run_latch_workload(workload, end_us, client);  // a latch is counted down and awaited, not acquired
    co_return;
  }
  const std::uint32_t threads = workload.threads_per_process;
  if (threads <= 1) {
    co_await run_thread(workload, end_us, client, ThreadLock{&client.lock()}, client.thread_seams(0));
    co_return;
  }
  const PublicType* type = public_type_of(variant);
  if (type == nullptr) throw std::invalid_argument("threads_per_process > 1 needs a variant with a public lock type");
  // In this frame: a simulated crash destroys the spawned threads first (ClientProcess::crash), then this frame.
  OwnedLock shared(client.lock(), client.clock(), workload.key, type->owned);
  std::vector<ThreadSeams> seams;  // seams[i]: thread i + 1's
  for (OwnerId thread = 1; thread <= threads; ++thread) seams.push_back(client.thread_seams(thread));
  std::vector<std::exception_ptr> failures(threads);
  std::vector<std::shared_ptr<Spawned>> others;
  for (OwnerId thread = 2; thread <= threads; ++thread) {
    Task<void> loop = run_thread(workload, end_us, client, ThreadLock{nullptr, &shared, thread}, seams[thread - 1]);
    others.push_back(client.spawner().spawn(keeping_failure(std::move(loop), failures[thread - 1])));
  }
  co_await keeping_failure(run_thread(workload, end_us, client, ThreadLock{nullptr, &shared, 1}, seams[0]), failures[0]);
  for (const std::shared_ptr<Spawned>& other : others) co_await other->join();
  for (const std::exception_ptr& failure : failures) {
    if (failure) std::rethrow_exception(failure);
  }
}

}  // namespace lockcheck::sim
