#include "workload/latch_workload.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "lockcheck/errors.hpp"
#include "lockcheck/latch_algorithm.hpp"
#include "workload/op_lines.hpp"

namespace lockcheck::sim {
namespace {

constexpr std::int64_t kMinRoundUs = 100'000;

// A command the server refused (an error reply) ends the process's workload: retrying cannot help.
void record_error(OpLog& log, int process, const char* f, const std::string& key, const RedisError& error) {
  HistoryLine failed = op_fields(log, process, "fail", f, key);
  failed.add("detail", error.what());
  failed.add("error", true);
  log.record(std::move(failed));
}

}  // namespace

std::int64_t latch_round_us(const WorkloadConfig& workload) {
  return std::max(kMinRoundUs, 2 * (workload.hold_max_us + workload.think_max_us));
}

Task<void> run_latch_workload(const WorkloadConfig& workload, std::int64_t end_us, WorkloadClient& client) {
  auto* latch = dynamic_cast<LatchAlgorithm*>(&client.lock());
  if (latch == nullptr) throw std::invalid_argument("the latch workload needs a latch variant");
  OpLog& log = client.log();
  Prng& prng = client.thread_seams(0).prng;
  const int process = client.process();
  const bool counter = process < static_cast<int>(workload.latch_count);
  const std::string participant = "process-" + std::to_string(process);
  const std::int64_t period_us = latch_round_us(workload);
  std::int64_t next_round = 0;
  for (std::uint32_t n = 0; n < workload.max_acquires_per_client && !client.gone(); ++n) {
    const std::int64_t round = std::max(next_round, log.now_us() / period_us);
    next_round = round + 1;
    // Every process arrives and sets the latch up (a Redisson latch's trySetCount) before the first count_down: the
    // counters do their part after the last arrival, as an application sets a latch up before its workers start.
    const std::int64_t arrive_us = round * period_us + prng.between(workload.think_min_us, workload.think_max_us);
    if (arrive_us >= end_us) co_return;
    if (arrive_us > log.now_us()) co_await client.clock().sleep(Micros(arrive_us - log.now_us()));
    const std::string key = workload.key + ":" + std::to_string(round);
    try {
      co_await latch->set_up(key);
    } catch (const RedisError& error) {
      record_error(log, process, "set_up", key, error);
      co_return;
    }
    if (counter) {
      const std::int64_t part_us = round * period_us + workload.think_max_us + prng.between(workload.hold_min_us, workload.hold_max_us);
      if (part_us > log.now_us()) co_await client.clock().sleep(Micros(part_us - log.now_us()));
      log.record(op_fields(log, process, "invoke", "count_down", key));
      CountDownResult counted;
      try {
        counted = co_await latch->count_down(key, participant, Micros(workload.wait_us));
      } catch (const RedisError& error) {
        record_error(log, process, "count_down", key, error);
        co_return;
      }
      const char* type = counted.status == CountDownStatus::counted       ? "ok"
                         : counted.status == CountDownStatus::unreachable ? "fail"
                                                                          : "info";
      HistoryLine done = op_fields(log, process, type, "count_down", key);
      done.add("result", to_string(counted.status));
      done.add("remaining", counted.remaining);
      if (!counted.detail.empty()) done.add("detail", counted.detail);
      log.record(std::move(done));
    }
    log.record(op_fields(log, process, "invoke", "await", key));
    LatchWaitResult waited;
    try {
      waited = co_await latch->wait(key, Micros(workload.wait_us));
    } catch (const RedisError& error) {
      record_error(log, process, "await", key, error);
      co_return;
    }
    HistoryLine done = op_fields(log, process, waited.status == LatchWaitStatus::opened ? "ok" : "fail", "await", key);
    if (waited.status != LatchWaitStatus::opened) {
      done.add("result", to_string(waited.status));
      done.add("detail", waited.detail);
    }
    done.add("polls", static_cast<std::int64_t>(waited.polls));
    log.record(std::move(done));
  }
}

}  // namespace lockcheck::sim
