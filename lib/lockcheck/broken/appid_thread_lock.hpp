#pragma once
// `appid-thread` — DELIBERATELY BROKEN, for study. Do not use it to protect anything.
//
// What it does: the token is APP_ID + thread id ("<APP_ID>:thread-1"), fixed for one lock object, where
// APP_ID is 128 random bits drawn once per object (so, unlike `thread-id`, two processes never collide).
// Acquire (one Lua script): if GET key == our token, re-PEXPIRE it with the TTL this acquire asks for and
// count that as acquired (reentry); if the key is free, SET it with the TTL; else busy. Release is the
// token lock's compare-and-delete; renew its compare-and-pexpire.
//
// Where it comes from: the article's sections 5-2 .. 5-5 (a value of APP_ID + thread id, so the same
// thread may re-enter by checking the value and re-setting the expiry), research/harness-anchors.md F17.
//
// What it guarantees: between different lock objects, what the token lock guarantees. Reentry is NOT
// counted: there is one value, no hold count.
//
// Breaks under: nesting. (1) The inner unlock is a compare-and-delete of the same token, so it deletes the
// key while the outer section is still running: another process acquires -> reentrancy and
// mutual_exclusion_server violated. (2) A nested acquire_with_ttl() with a shorter TTL than the outer one
// re-PEXPIREs the key to the shorter TTL: the key expires under the outer section (F17) -> reentrancy
// violated. See scenarios/appid-thread-reentry-shortens-ttl.toml; reentrant-maxttl is the sound version.
#include <string>

#include "lockcheck/variants/single_key_lock.hpp"

namespace lockcheck::broken {

class AppIdThreadLock final : public detail::SingleKeyLock {
 public:
  AppIdThreadLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options,
                  std::string thread_id = "thread-1", std::size_t node = 0)
      : SingleKeyLock(port, clock, entropy, options, node), thread_id_(std::move(thread_id)) {}

  // THE BUG (2): a reentry re-PEXPIREs with `ttl`, even when that is shorter than what is left.
  Task<AcquireResult> acquire_with_ttl(std::string key, Micros wait, Millis ttl) override;

  // APP_ID + ":" + thread id, drawn on first use, then fixed.
  const std::string& token();

 protected:
  std::string make_token() override { return token(); }
  Task<Attempt> attempt(const std::string& key, const std::string& token, bool after_lost_reply) override;
  Task<Attempt> attempt_with_ttl(const std::string& key, const std::string& token, bool after_lost_reply,
                                 Millis ttl, const Request& request) override;
  // THE BUG (1): release_call() stays the compare-and-delete: the inner unlock frees the outer hold.

 private:
  std::string thread_id_;
  std::string token_;
};

}  // namespace lockcheck::broken
