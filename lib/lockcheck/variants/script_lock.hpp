#pragma once
// `script`: the user's own acquire / release / renew Lua scripts, run under the contract of DESIGN.md, so
// users can test their lock scripts under faults and compare them with the catalogue.
//
//   acquire.lua  KEYS[1] lock key, ARGV[1] owner token, ARGV[2] TTL in ms, ARGV[3] the client's wall clock
//                in ms; returns 1 when acquired, 0 or nil when not.
//   release.lua  KEYS[1], ARGV[1] token; returns 1 when released, 0 when not owned.
//   renew.lua    (optional) KEYS[1], ARGV[1] token, ARGV[2] TTL in ms; returns 1 when extended, 0 when not.
//
// Everything around the scripts is the token lock's careful loop (single_key_lock.hpp): jittered backoff,
// validity on the monotonic clock minus the drift margin, release retried on a lost reply. After a lost
// acquire reply the acquire script simply runs again with the same token: whether it recognises its own
// token is the script's business, and the checkers will say.
#include <optional>
#include <string>

#include "lockcheck/script.hpp"
#include "lockcheck/variants/single_key_lock.hpp"

namespace lockcheck {

struct UserScripts {
  std::string acquire;  // Lua source text, not paths
  std::string release;
  std::string renew;  // empty: the variant cannot renew
};

class ScriptLock final : public detail::SingleKeyLock {
 public:
  // Throws InvalidArgument when acquire or release is empty.
  ScriptLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, const UserScripts& scripts,
             std::size_t node = 0);

 protected:
  Task<Attempt> attempt(const std::string& key, const std::string& token, bool after_lost_reply) override;
  Task<CallResult> release_call(const std::string& key, const std::string& token, const Request& request) override;
  // Throws InvalidArgument when the scenario gave no renew.lua.
  Task<CallResult> renew_call(const std::string& key, const std::string& token) override;

 private:
  Script acquire_;
  Script release_;
  std::optional<Script> renew_;
};

}  // namespace lockcheck
