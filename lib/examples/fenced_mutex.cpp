// lib/README.md's FencedMutex example, compiled and run by the test suite (lib/test/examples_test.cpp).
#include <lockcheck/fenced_mutex.hpp>

#include <chrono>
#include <cstdio>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

// README:BEGIN
void write_with_fence(const std::string& host, int port) {
  lockcheck::Client client({.host = host, .port = port});
  lockcheck::FencedMutex mutex(client, "lock:ledger", {.lock = {.ttl = std::chrono::seconds(10)}});
  std::lock_guard hold(mutex);
  // The store keeps the highest token it has seen and refuses writes that carry a lower one.
  std::printf("write ledger with fencing token %lld\n", static_cast<long long>(mutex.fencing_token()));
}
// README:END

#ifndef LOCKCHECK_EXAMPLE_NO_MAIN
int main(int argc, char** argv) {
  const std::string host = argc > 1 ? argv[1] : "127.0.0.1";
  const int port = argc > 2 ? std::stoi(argv[2]) : 6379;
  try {
    write_with_fence(host, port);
  } catch (const lockcheck::Error& error) {
    std::fprintf(stderr, "fenced_mutex: %s\n", error.what());
    return 1;
  }
  return 0;
}
#endif
