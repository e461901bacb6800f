// lib/README.md's SharedMutex example, compiled and run by the test suite (lib/test/examples_test.cpp).
#include <lockcheck/shared_mutex.hpp>

#include <chrono>
#include <cstdio>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

// README:BEGIN
void read_then_write(const std::string& host, int port) {
  lockcheck::Client client({.host = host, .port = port});
  lockcheck::SharedMutex mutex(client, "lock:catalog", {.lock = {.ttl = std::chrono::seconds(10)}});
  {
    std::shared_lock read(mutex);  // readers hold together, each with its own lease
    std::puts("reading the catalog");
  }
  std::unique_lock write(mutex);  // one writer, no readers
  std::puts("updating the catalog");
}
// README:END

#ifndef LOCKCHECK_EXAMPLE_NO_MAIN
int main(int argc, char** argv) {
  const std::string host = argc > 1 ? argv[1] : "127.0.0.1";
  const int port = argc > 2 ? std::stoi(argv[2]) : 6379;
  try {
    read_then_write(host, port);
  } catch (const lockcheck::Error& error) {
    std::fprintf(stderr, "shared_mutex: %s\n", error.what());
    return 1;
  }
  return 0;
}
#endif
