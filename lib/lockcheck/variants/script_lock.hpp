#pragma once
// `script`: the user's own acquire / release / renew Lua scripts, run under the contract of DESIGN.md, so
// users can test their lock scripts under faults and compare them with the catalogue.
//
//   acquire.lua  KEYS[1] lock key, ARGV[1] owner token, ARGV[2] TTL in ms, ARGV[3] the client's wall clock
//                in ms; returns 1, true or SET's OK when acquired, 0, false or nil when not.
//   release.lua  KEYS[1], ARGV[1] token; returns 1 or true when released, 0, false or nil when not owned.
//   renew.lua    (optional) KEYS[1], ARGV[1] token, ARGV[2] TTL in ms; 1 or true when extended, 0, false or
//                nil when not.
// (Users read this contract in scenarios/README.md, "[scripts]"; keep the two in step.)
//
// Everything around the scripts is the token lock's careful loop (single_key_lock.hpp): jittered backoff,
// validity on the monotonic clock minus the drift margin, release retried on a lost reply. After a lost
// acquire reply the acquire script simply runs again with the same token: whether it recognises its own
// token is the script's business, and the checkers will say.
#include <optional>
#include <string>
#include <string_view>

#include "lockcheck/script.hpp"
#include "lockcheck/variants/single_key_lock.hpp"

namespace lockcheck {

struct UserScripts {
  std::string acquire;  // Lua source text, not paths
  std::string release;
  std::string renew;  // empty: the variant cannot renew
  // How errors name each script: the file name the user gave, so "renew.lua:3" points at the line.
  std::string acquire_name = "acquire.lua";
  std::string release_name = "release.lua";
  std::string renew_name = "renew.lua";
};

// What a script's reply means under the contract. Lua's true reaches the client as 1, false as nil.
enum class ScriptAnswer { yes, no, outside_contract };
// acquire.lua: 1 or the status OK (a script that returns SET's own reply) is yes; 0 or nil is no.
ScriptAnswer acquire_answer(const Reply& reply);
// release.lua and renew.lua: 1 is yes; 0 or nil is no.
ScriptAnswer owner_check_answer(const Reply& reply);

// Redis names a failing script "user_script" and adds its SHA1 ("ERR user_script:3: boom script: <sha>, on
// @user_script:3."); the user knows it as `file`: "ERR renew.lua:3: boom (at renew.lua:3)".
std::string name_script_in_error(std::string_view error_text, std::string_view file);

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
  std::string acquire_name_, release_name_, renew_name_;
};

}  // namespace lockcheck
