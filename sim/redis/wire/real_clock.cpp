#include "redis/wire/real_clock.hpp"

#include <chrono>

namespace lockcheck::mock {

std::int64_t real_unix_time_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

std::int64_t real_unix_time_us() {
  using namespace std::chrono;
  return duration_cast<microseconds>(system_clock::now().time_since_epoch()).count();
}

}  // namespace lockcheck::mock
