// The clock shim under a real redis-server: a +120 s jump expires a PX 60000 key at once and moves TIME.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "server_clock.hpp"
#include "server_process.hpp"

namespace lockcheck::redis_backend {
namespace {

class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "lockcheck-shim-test-XXXXXX").string();
    path_ = mkdtemp(pattern.data());
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string path_;
};

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
