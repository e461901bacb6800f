// Built against an installed lockcheck (find_package and pkg-config) by cmake/check_package.cmake. It needs no
// Redis: it shows that the headers compile, the library and hiredis link, and errors reach the caller typed.
#include <lockcheck/counting_semaphore.hpp>
#include <lockcheck/latch.hpp>
#include <lockcheck/fair_mutex.hpp>
#include <lockcheck/mutex.hpp>

#include <cstdio>
#include <vector>

int main() {
  // Port 1 on loopback: nothing listens, so every connection is refused at once.
  const lockcheck::ConnectionOptions nowhere{.host = "127.0.0.1", .port = 1};
  try {
    lockcheck::Client eager(nowhere);
    std::puts("consumer: connected to a port where nothing listens");
    return 1;
  } catch (const lockcheck::ConnectionError&) {
  }
  // A multi-node client connects on first use: the lock attempt reaches hiredis and fails there.
  lockcheck::Client lazy(std::vector<lockcheck::ConnectionOptions>{nowhere});
  lockcheck::Mutex mutex(lazy, "consumer:lock");
  // The semaphore type installs and links too (its algorithm's scripts are the generated header's).
  const lockcheck::CountingSemaphore pool(lazy, "consumer:pool", 2);
  if (pool.max() != 2) {
    std::puts("consumer: a semaphore of 2 permits says otherwise");
    return 1;
  }
  // And the latch type.
  const lockcheck::Latch done(lazy, "consumer:latch", 3);
  if (done.count() != 3) {
    std::puts("consumer: a latch of 3 says otherwise");
    return 1;
  }
  // The fair lock's type installs and links too; its try_lock reaches hiredis as Mutex's does.
  lockcheck::FairMutex fair(lazy, "consumer:fair");
  try {
    (void)fair.try_lock();
    std::puts("consumer: a fair lock answered on a port where nothing listens");
    return 1;
  } catch (const lockcheck::ConnectionError&) {
  }
  try {
    if (mutex.try_lock()) {
      std::puts("consumer: locked on a port where nothing listens");
      return 1;
    }
  } catch (const lockcheck::ConnectionError&) {
    std::puts("consumer: ok");
    return 0;
  }
  std::puts("consumer: try_lock neither locked nor reported the refused connection");
  return 1;
}
