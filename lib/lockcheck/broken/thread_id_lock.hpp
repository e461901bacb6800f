#pragma once
// `thread-id` — DELIBERATELY BROKEN, for study. Do not use it to protect anything.
//
// What it does: the `token` lock's commands (SET key <token> NX PX ttl; compare-and-delete; compare-and-
// pexpire; after a lost reply, a retry that counts "the key already holds my token" as acquired), but the
// token is a thread id such as "thread-1" instead of 128 random bits.
//
// Where it comes from: the article's section 5-1 ("use the thread id as the value, so only the locking thread
// can unlock"), and redis-py's lock() docstring on thread-local tokens (research/harness-anchors.md, F23).
// Redisson avoids it with "<UUID>:<threadId>".
//
// What it guarantees: inside one process, what the token lock guarantees between its threads. Across
// processes, nothing: thread 1 of process A and thread 1 of process B present the same token, so each can
// delete or extend the other's lock, and a retry after a lost reply takes over the other's lock as "mine".
//
// Breaks under: two or more processes and any holder that overruns its TTL (a pause, a slow hold): its late
// compare-and-delete matches the other process's "thread-1" and deletes its lock -> owner_only_release and
// mutual_exclusion_server. See scenarios/thread-id-collision.toml.
#include <string>

#include "lockcheck/variants/single_key_lock.hpp"

namespace lockcheck::broken {

class ThreadIdLock final : public detail::SingleKeyLock {
 public:
  // `thread_id` is the token every acquire uses; the default is what thread 1 of any process would send.
  ThreadIdLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, std::string thread_id = "thread-1",
               std::size_t node = 0);

  const std::string& thread_id() const { return thread_id_; }

 protected:
  // THE BUG: the same token in every process.
  std::string make_token() override { return thread_id_; }

 private:
  std::string thread_id_;
};

}  // namespace lockcheck::broken
