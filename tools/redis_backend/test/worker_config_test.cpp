// The configuration a worker runs is the run's own, field for field.
#include "worker_config.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

namespace lockcheck::redis_backend {
namespace {

TEST(WorkerConfig, EveryFieldSurvivesTheFile) {
  sim::SimConfig config;
  config.variant = "script";
  config.scripts = UserScripts{"return 1", "return 2", "return 3"};
  config.command_timeout_us = 123000;
  config.lock.ttl = Millis(4321);
  config.lock.clock_drift_ppm = 77;
  config.lock.drift_floor = Millis(9);
  config.lock.retry = RetryPolicy{Micros(1234), Micros(56789), 42, 5, 6};
  config.workload = sim::WorkloadConfig{"k", 11, 12, 13, 14, 15, 16, true, 2, 17, 18, 19, 20};
  const std::string path = (std::filesystem::temp_directory_path() / ("worker-config-test-" + std::to_string(getpid()))).string();
  write_worker_config(config, path);
  const sim::SimConfig back = read_worker_config(path);
  std::filesystem::remove(path);
  EXPECT_EQ(back.variant, "script");
  EXPECT_EQ(back.scripts.acquire, "return 1");
  EXPECT_EQ(back.scripts.release, "return 2");
  EXPECT_EQ(back.scripts.renew, "return 3");
  EXPECT_EQ(back.command_timeout_us, 123000);
  EXPECT_EQ(back.lock.ttl, Millis(4321));
  EXPECT_EQ(back.lock.clock_drift_ppm, 77u);
  EXPECT_EQ(back.lock.drift_floor, Millis(9));
  EXPECT_EQ(back.lock.retry.delay_min, Micros(1234));
  EXPECT_EQ(back.lock.retry.delay_max, Micros(56789));
  EXPECT_EQ(back.lock.retry.max_attempts, 42u);
  EXPECT_EQ(back.lock.retry.unknown_outcome_attempts, 5u);
  EXPECT_EQ(back.lock.retry.idempotent_attempts, 6u);
  const sim::WorkloadConfig& w = back.workload;
  EXPECT_EQ(w.key, "k");
  EXPECT_EQ(w.wait_us, 11);
  EXPECT_EQ(w.hold_min_us, 12);
  EXPECT_EQ(w.hold_max_us, 13);
  EXPECT_EQ(w.think_min_us, 14);
  EXPECT_EQ(w.think_max_us, 15);
  EXPECT_EQ(w.max_acquires_per_client, 16u);
  EXPECT_TRUE(w.fencing);
  EXPECT_EQ(w.nest_every, 2u);
  EXPECT_EQ(w.nested_ttl_us, 17);
  EXPECT_EQ(w.nested_hold_min_us, 18);
  EXPECT_EQ(w.nested_hold_max_us, 19);
  EXPECT_EQ(w.readers_ppm, 20u);
}

}  // namespace
}  // namespace lockcheck::redis_backend
