#include "lockcheck/broken/thread_id_lock.hpp"

#include "lockcheck/errors.hpp"

namespace lockcheck::broken {
ThreadIdLock::ThreadIdLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, std::string thread_id,
                           std::size_t node)
    : SingleKeyLock(port, clock, entropy, options, node), thread_id_(std::move(thread_id)) {
  if (thread_id_.empty()) throw InvalidArgument("thread-id lock: the thread id must not be empty");
}

}  // namespace lockcheck::broken
