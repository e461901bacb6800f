// lib/README.md's FairMutex example, compiled and run by the test suite (lib/test/examples_test.cpp).
#include <lockcheck/fair_mutex.hpp>

#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>

// README:BEGIN
void settle_in_turn(const std::string& host, int port) {
  lockcheck::Client client({.host = host, .port = port});
  // Every process that locks "ledger" waits its turn: first come, first served, whatever its clock says.
  lockcheck::FairMutex ledger(client, "ledger",
                              {.lock = {.ttl = std::chrono::seconds(10)}, .lock_wait = std::chrono::seconds(5)});
  {
    std::lock_guard hold(ledger);  // joins the queue; throws LockTimeout after lock_wait
    if (!ledger.lost()) std::puts("settling the ledger");
  }
  if (auto lease = ledger.try_acquire(std::chrono::seconds(1))) {  // a lease of its own, not the thread's
    std::puts("auditing the ledger");
    ledger.release(*lease);  // a waiter that gives up leaves the queue; one that dies loses its place in 5 s
  }
}
// README:END

#ifndef LOCKCHECK_EXAMPLE_NO_MAIN
int main(int argc, char** argv) {
  const std::string host = argc > 1 ? argv[1] : "127.0.0.1";
  const int port = argc > 2 ? std::stoi(argv[2]) : 6379;
  try {
    settle_in_turn(host, port);
  } catch (const lockcheck::Error& error) {
    std::fprintf(stderr, "fair_mutex: %s\n", error.what());
    return 1;
  }
  return 0;
}
#endif
