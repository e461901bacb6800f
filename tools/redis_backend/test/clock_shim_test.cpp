// The clock shim under a real redis-server: a +120 s jump expires a PX 60000 key at once and moves TIME.
#include <gtest/gtest.h>

#include <time.h>

#include <chrono>
#include <limits>
#include <string>
#include <thread>

#include "record_sink.hpp"
#include "server_clock.hpp"
#include "server_process.hpp"
#include "temp_dir.hpp"

namespace lockcheck::redis_backend {
namespace {

// The server's wall clock now, as its MONITOR lines stamp it (microseconds): the real one plus the offset.
std::int64_t server_wall_us(const ServerClock& clock) {
  timespec wall{};
  clock_gettime(CLOCK_REALTIME, &wall);
  return (static_cast<std::int64_t>(wall.tv_sec) * 1'000'000'000 + wall.tv_nsec + clock.offset_ns()) / 1000;
}

constexpr std::int64_t kAnyTime = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kLeewayNs = 50'000'000;  // a loaded machine may stop the test between two clock reads

std::int64_t server_seconds(int port) {
  // TIME's seconds, as an integer reply.
  return run_command(port, {"EVAL", "return tonumber(redis.call('TIME')[1])", "0"}).integer;
}

TEST(ClockShim, ForwardJumpExpiresKeysAndMovesTime) {
  TempDir dir;
  ServerClock clock(dir.path_ + "/clock");
  ServerProcess server(ServerSpec{dir.path_ + "/node", Persistence::none, 0, LOCKCHECK_CLOCK_SHIM_PATH, clock.path(), false});
  ASSERT_EQ(run_command(server.port(), {"SET", "k", "v", "PX", "60000"}).text, "OK");
  const std::int64_t before = server_seconds(server.port());
  clock.jump(120'000'000);
  EXPECT_TRUE(run_command(server.port(), {"GET", "k"}).is_nil());
  const std::int64_t after = server_seconds(server.port());
  EXPECT_GE(after - before, 119);
  EXPECT_LE(after - before, 130);  // wide margin for a loaded machine
}

TEST(ClockShim, WithoutJumpKeysLive) {
  TempDir dir;
  ServerClock clock(dir.path_ + "/clock");
  ServerProcess server(ServerSpec{dir.path_ + "/node", Persistence::none, 0, LOCKCHECK_CLOCK_SHIM_PATH, clock.path(), false});
  ASSERT_EQ(run_command(server.port(), {"SET", "k", "v", "PX", "60000"}).text, "OK");
  EXPECT_EQ(run_command(server.port(), {"GET", "k"}).text, "v");
}

}  // namespace
}  // namespace lockcheck::redis_backend

namespace lockcheck::redis_backend {
namespace {

// A stamp maps back to when the clock read it, under the setting of its time: before a forward jump and after
// it (the run's observer may read a stamp from before a move only after the move).
TEST(ServerClockStamps, MapBackAcrossAForwardJump) {
  TempDir dir;
  ServerClock clock(dir.path_ + "/clock");
  const std::int64_t before_at = monotonic_ns();
  const std::int64_t before = server_wall_us(clock);
  clock.jump(10'000'000);
  const std::int64_t after_at = monotonic_ns();
  const std::int64_t after = server_wall_us(clock);
  EXPECT_GE(after - before, 10'000'000);
  const std::optional<std::int64_t> before_ns = clock.monotonic_ns_when_read(before, kAnyTime);
  const std::optional<std::int64_t> after_ns = clock.monotonic_ns_when_read(after, kAnyTime);
  ASSERT_TRUE(before_ns && after_ns);
  EXPECT_NEAR(static_cast<double>(*before_ns), static_cast<double>(before_at), kLeewayNs);
  EXPECT_NEAR(static_cast<double>(*after_ns), static_cast<double>(after_at), kLeewayNs);
}

// Moved back 10 s, the clock reads again what it read 10 s before: the stamp before it in the stream tells
// which of the two moments it was.
TEST(ServerClockStamps, AMoveBackIsToldApartByTheStampBefore) {
  TempDir dir;
  ServerClock clock(dir.path_ + "/clock");
  const std::int64_t before_at = monotonic_ns();
  clock.jump(-10'000'000);
  const std::int64_t after_at = monotonic_ns();
  const std::int64_t after = server_wall_us(clock);
  const std::optional<std::int64_t> earliest = clock.monotonic_ns_when_read(after, kAnyTime);
  const std::optional<std::int64_t> in_order = clock.monotonic_ns_when_read(after, before_at - kLeewayNs);
  ASSERT_TRUE(earliest && in_order);
  EXPECT_NEAR(static_cast<double>(*earliest), static_cast<double>(after_at - 10'000'000'000), kLeewayNs);
  EXPECT_NEAR(static_cast<double>(*in_order), static_cast<double>(after_at), kLeewayNs);
}

// A clock running twice as fast (1,000,000 ppm): 300 ms after the drift began it is 300 ms ahead, and a stamp
// maps back to the moment, not to 300 ms later.
TEST(ServerClockStamps, ADriftingClockMapsBack) {
  TempDir dir;
  ServerClock clock(dir.path_ + "/clock");
  clock.set_drift(1'000'000);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const std::int64_t now_at = monotonic_ns();
  const std::int64_t now = server_wall_us(clock);
  const std::optional<std::int64_t> at = clock.monotonic_ns_when_read(now, kAnyTime);
  ASSERT_TRUE(at);
  EXPECT_NEAR(static_cast<double>(*at), static_cast<double>(now_at), kLeewayNs);
}

}  // namespace
}  // namespace lockcheck::redis_backend
