// lib/README.md's ReplicatedMutex example, compiled and run by the test suite (lib/test/examples_test.cpp).
#include <lockcheck/replicated_mutex.hpp>

#include <chrono>
#include <cstdio>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

// README:BEGIN
void lock_on_replicated_master(const std::string& host, int port) {
  lockcheck::Client client({.host = host, .port = port});  // the master; it has >= 1 replica
  lockcheck::ReplicatedMutex mutex(client, "lock:invoice:7", {.lock = {.ttl = std::chrono::seconds(10)}},
                                   {.replicas = 1, .wait_timeout = std::chrono::milliseconds(500)});
  std::lock_guard hold(mutex);  // counted only once a replica acknowledged the SET
  if (!mutex.lost()) std::puts("issuing invoice 7");
}
// README:END

#ifndef LOCKCHECK_EXAMPLE_NO_MAIN
int main(int argc, char** argv) {
  const std::string host = argc > 1 ? argv[1] : "127.0.0.1";
  const int port = argc > 2 ? std::stoi(argv[2]) : 6379;
  try {
    lock_on_replicated_master(host, port);
  } catch (const lockcheck::Error& error) {
    std::fprintf(stderr, "replicated_mutex: %s\n", error.what());
    return 1;
  }
  return 0;
}
#endif
