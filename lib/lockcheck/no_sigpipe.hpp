#pragma once
// hiredis writes with write(2). On a connection the server has reset (a Redis node killed, a connection
// killed by CLIENT KILL or a proxy), that raises SIGPIPE, whose default action ends the whole process: a lock
// call would kill the program that made it. A library may neither do that nor change the program's signal
// handlers, so each write runs inside a NoSigpipe: SIGPIPE blocked in the calling thread, and a SIGPIPE the
// write raised taken off the thread's pending set before the old mask comes back. The write then just fails
// with EPIPE, which the port reports as a failed call. (A SIGPIPE already pending before is left alone.)
#include <signal.h>

namespace lockcheck::detail {

class NoSigpipe {
 public:
  NoSigpipe();
  ~NoSigpipe();
  NoSigpipe(const NoSigpipe&) = delete;
  NoSigpipe& operator=(const NoSigpipe&) = delete;

 private:
  sigset_t old_mask_;
  bool pending_before_ = false;
};

}  // namespace lockcheck::detail
