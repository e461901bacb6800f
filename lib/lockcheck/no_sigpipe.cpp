#include "lockcheck/no_sigpipe.hpp"

#include <pthread.h>

#include <cerrno>
#include <ctime>

namespace lockcheck::detail {
namespace {

sigset_t only_sigpipe() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGPIPE);
  return set;
}

bool sigpipe_pending() {
  sigset_t pending;
  sigemptyset(&pending);
  return sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1;
}

}  // namespace

NoSigpipe::NoSigpipe() {
  pending_before_ = sigpipe_pending();
  const sigset_t pipe = only_sigpipe();
  pthread_sigmask(SIG_BLOCK, &pipe, &old_mask_);
}

NoSigpipe::~NoSigpipe() {
  if (!pending_before_ && sigpipe_pending()) {
    const sigset_t pipe = only_sigpipe();
    const timespec no_wait{0, 0};
    // Takes the one pending SIGPIPE; bounded, a retry only when another signal's handler interrupted it.
    for (int attempt = 0; attempt < 8; ++attempt) {
      if (sigtimedwait(&pipe, nullptr, &no_wait) != -1 || errno != EINTR) break;
    }
  }
  pthread_sigmask(SIG_SETMASK, &old_mask_, nullptr);
}

}  // namespace lockcheck::detail
