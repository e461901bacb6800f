// lib/README.md's CountingSemaphore example, compiled and run by the test suite (lib/test/examples_test.cpp).
#include <lockcheck/counting_semaphore.hpp>

#include <chrono>
#include <cstdio>
#include <string>

// README:BEGIN
void use_a_pool_slot(const std::string& host, int port) {
  lockcheck::Client client({.host = host, .port = port});
  // At most 2 holders of "pool:reports" at once, across every process that uses the key.
  lockcheck::CountingSemaphore slots(client, "pool:reports", 2, {.lock = {.ttl = std::chrono::seconds(10)}});
  auto spare = slots.try_acquire_lease(std::chrono::seconds(1));  // a permit of its own, not the thread's
  if (slots.try_acquire_for(std::chrono::seconds(1)) && !slots.lost()) {
    std::puts(spare ? "running 2 reports" : "running 1 report");
    slots.release();  // removes this thread's permit only; retried after a lost reply, never counted twice
  }
  if (spare) slots.release(*spare);
}
// README:END

#ifndef LOCKCHECK_EXAMPLE_NO_MAIN
int main(int argc, char** argv) {
  const std::string host = argc > 1 ? argv[1] : "127.0.0.1";
  const int port = argc > 2 ? std::stoi(argv[2]) : 6379;
  try {
    use_a_pool_slot(host, port);
  } catch (const lockcheck::Error& error) {
    std::fprintf(stderr, "counting_semaphore: %s\n", error.what());
    return 1;
  }
  return 0;
}
#endif
