// lib/README.md's RedissonMutex example, compiled and run by the test suite (lib/test/examples_test.cpp).
#include <lockcheck/redisson_mutex.hpp>

#include <chrono>
#include <cstdio>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

// README:BEGIN
void nested_sections(const std::string& host, int port) {
  lockcheck::Client client({.host = host, .port = port});
  lockcheck::RedissonMutex mutex(client, "lock:account:9");  // watchdog renews every ttl/3
  std::lock_guard outer(mutex);
  {
    std::lock_guard inner(mutex);  // the same thread again: a count, no Redis call
    std::printf("holding %u times\n", mutex.holds());
  }                                // the lock is released only when outer goes
}
// README:END

#ifndef LOCKCHECK_EXAMPLE_NO_MAIN
int main(int argc, char** argv) {
  const std::string host = argc > 1 ? argv[1] : "127.0.0.1";
  const int port = argc > 2 ? std::stoi(argv[2]) : 6379;
  try {
    nested_sections(host, port);
  } catch (const lockcheck::Error& error) {
    std::fprintf(stderr, "redisson_mutex: %s\n", error.what());
    return 1;
  }
  return 0;
}
#endif
