// lib/README.md's Latch example, compiled and run by the test suite (lib/test/examples_test.cpp).
#include <lockcheck/latch.hpp>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

// README:BEGIN
void wait_for_three_workers(const std::string& host, int port) {
  lockcheck::Client client({.host = host, .port = port});
  // Opens once 3 count_downs were recorded, whichever processes make them.
  lockcheck::Latch done(client, "batch:7:done", 3);
  std::vector<std::thread> workers;
  for (int i = 0; i < 3; ++i) {
    workers.emplace_back([&client] {
      lockcheck::Latch mine(client, "batch:7:done", 3);
      mine.count_down();  // one id per call: retried after a lost reply, it still counts once
    });
  }
  const bool all_done = done.wait_for(std::chrono::seconds(10));  // re-polls; no message to miss
  for (std::thread& worker : workers) worker.join();
  std::puts(all_done ? "all 3 workers done" : "still waiting");
}
// README:END

#ifndef LOCKCHECK_EXAMPLE_NO_MAIN
int main(int argc, char** argv) {
  const std::string host = argc > 1 ? argv[1] : "127.0.0.1";
  const int port = argc > 2 ? std::stoi(argv[2]) : 6379;
  try {
    wait_for_three_workers(host, port);
  } catch (const lockcheck::Error& error) {
    std::fprintf(stderr, "latch: %s\n", error.what());
    return 1;
  }
  return 0;
}
#endif
