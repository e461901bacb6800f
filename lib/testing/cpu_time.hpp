#pragma once
// Benchmark support: CPU time of the calling thread and of another process, so a benchmark can state a ratio
// by CPU time beside the one by real time (a loopback redis-server's own CPU belongs to its side).
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

namespace lockcheck::testing {

// CPU seconds (user + system) the calling thread has used.
inline double thread_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

// CPU seconds (user + system, all threads) process `pid` has used, from /proc/<pid>/stat, in clock ticks
// (10 ms): read it around a whole benchmark, not a single call. -1 when it cannot be read.
inline double process_cpu_seconds(pid_t pid) {
  std::ifstream file("/proc/" + std::to_string(pid) + "/stat");
  const std::string text{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  const auto name_end = text.rfind(')');  // the command name may hold spaces and parentheses
  if (name_end == std::string::npos) return -1;
  std::istringstream fields(text.substr(name_end + 1));
  std::string skipped;
  for (int field = 3; field <= 13; ++field) fields >> skipped;  // state .. cmajflt
  unsigned long long user_ticks = 0, system_ticks = 0;       // fields 14 and 15
  if (!(fields >> user_ticks >> system_ticks)) return -1;
  return static_cast<double>(user_ticks + system_ticks) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

}  // namespace lockcheck::testing
