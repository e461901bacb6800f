// lib/README.md's RedlockMutex example, compiled and run by the test suite (lib/test/examples_test.cpp).
#include <lockcheck/redlock_mutex.hpp>

#include <chrono>
#include <cstdio>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

// README:BEGIN
void lock_on_quorum(const std::string& host, const std::vector<int>& ports) {
  std::vector<lockcheck::ConnectionOptions> nodes;
  for (int port : ports) nodes.push_back({.host = host, .port = port});
  lockcheck::Client client(nodes);  // independent masters, not replicas of one another
  lockcheck::RedlockMutex mutex(client, "lock:report", {.lock = {.ttl = std::chrono::seconds(10)}});
  std::lock_guard hold(mutex);  // held on a majority of the nodes
  if (!mutex.lost()) std::puts("building the report");
}
// README:END

#ifndef LOCKCHECK_EXAMPLE_NO_MAIN
int main(int argc, char** argv) {
  const std::string host = argc > 1 ? argv[1] : "127.0.0.1";
  const int port = argc > 2 ? std::stoi(argv[2]) : 6379;
  try {
    lock_on_quorum(host, {port, argc > 3 ? std::stoi(argv[3]) : 6380, argc > 4 ? std::stoi(argv[4]) : 6381});
  } catch (const lockcheck::Error& error) {
    std::fprintf(stderr, "redlock_mutex: %s\n", error.what());
    return 1;
  }
  return 0;
}
#endif
