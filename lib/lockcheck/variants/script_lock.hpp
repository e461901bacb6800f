#pragma once
// `script`: the user's own acquire / release / renew Lua scripts, run under the contract of DESIGN.md, so
// users can test their lock scripts under faults and compare them with the catalogue.
//
//   acquire.lua  KEYS[1] lock key, ARGV[1] owner token, ARGV[2] TTL in ms, ARGV[3] the client's wall clock
//                in ms; answers whether it acquired.
//   release.lua  KEYS[1], ARGV[1] token; answers whether it released.
//   renew.lua    (optional) KEYS[1], ARGV[1] token, ARGV[2] TTL in ms; answers whether it extended.
// All three answer in the same shapes (script_answer): 1, true or SET's OK for yes; 0, false or nil for no.
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

// What a script's reply means under the contract. Lua's true reaches the client as 1, false as nil; a script
// that returns SET's own reply answers OK or nil. Every other reply is outside the contract.
enum class ScriptAnswer { yes, no, outside_contract };
ScriptAnswer script_answer(const Reply& reply);
// The accepted shapes as messages name them.
inline constexpr const char* kScriptContractShapes = "1, true or OK (yes), or 0, false or nil (no)";
// Every breach's message says this: a history's op detail that contains it is a breach (how `lockcheck run` and
// `explore` tell a broken script from a broken lock; properties/script_contract.hpp looks for the same words).
inline constexpr const char* kScriptContractBroken = "broke the lock script contract";

// Why `reply`, from the user's script `file`, breaks the contract: "release.lua broke the lock script contract:
// it returned (integer) 2; ...", or "release.lua:3 broke ...: it failed with ..." for an error the script raised
// (a Lua error, a bad redis.call). "" for an answer, and for a refusal of the server's own (READONLY, OOM, ...).
std::string script_contract_breach(const Reply& reply, std::string_view file);

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
