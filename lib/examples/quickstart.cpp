// The README's quick start, compiled and run by the test suite (lib/test/quickstart_test.cpp).
#include <lockcheck/mutex.hpp>

#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>

// README:BEGIN
void charge_order(const std::string& host, int port) {
  using namespace std::chrono_literals;
  lockcheck::Client client({.host = host, .port = port});  // throws ConnectionError if unreachable
  lockcheck::MutexOptions options;
  options.lock.ttl = 10s;    // the lock frees itself 10 s after a crash
  options.lock_wait = 30s;   // lock() waits at most this long, then throws LockTimeout
  lockcheck::Mutex mutex(client, "lock:order:42", options);

  {
    std::lock_guard hold(mutex);  // a Lockable: lock_guard, unique_lock, scoped_lock all work
    if (!mutex.lost()) std::puts("charging order 42 while holding the lock");
  }                               // released by compare-and-delete: never someone else's lock

  if (lockcheck::Guard guard = mutex.guard(); !guard.lost()) {
    std::printf("lease valid for another %lld ms\n",
                static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(guard.lease().remaining()).count()));
    guard.renew();                // extend a long critical section; false means the lock was lost
  }
}
// README:END

#ifndef LOCKCHECK_EXAMPLE_NO_MAIN
int main(int argc, char** argv) {
  const std::string host = argc > 1 ? argv[1] : "127.0.0.1";
  const int port = argc > 2 ? std::stoi(argv[2]) : 6379;
  try {
    charge_order(host, port);
  } catch (const lockcheck::Error& error) {
    std::fprintf(stderr, "quickstart: %s\n", error.what());
    return 1;
  }
  return 0;
}
#endif
