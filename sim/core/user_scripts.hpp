#pragma once
// Checks the user's lock scripts before a run: each must compile as Redis's Lua 5.1 would (the mock rejects
// 5.4-only syntax by name), and the set must keep the `script` variant's contract on a probe: the scripts run
// once as a holder runs them, on one key of a fresh mock node, and each answer must have an accepted shape
// (script_lock.hpp). What a probe cannot reach (a branch taken only under faults, or after many calls) is
// caught at its first occurrence in a run (properties/script_contract.hpp).
#include <optional>
#include <string>

#include "lockcheck/variants/script_lock.hpp"

namespace lockcheck::sim {

struct ScriptRefusal {
  std::string which;    // "acquire", "release" or "renew": the script to fix
  std::string problem;  // names the file as `scripts` does ("renew.lua:3" where Redis says "user_script:3")
};

// The probe, in a holder's order on one key: acquire with token A on the free key (it must answer yes: an
// acquire that never takes a free lock, such as one without `return`, cannot be tested); renew and release A
// (each must answer yes while the key acquire made is there); release and renew A again (no longer held);
// acquire A, then acquire, release and renew with token B (another holder's). Every answer must be in the
// contract's shapes and no script may fail. The first problem, or nothing. An empty renew is not probed.
std::optional<ScriptRefusal> check_user_scripts(const UserScripts& scripts);

// One script probed beside correct token scripts in the other roles (tests and messages): "" when fine.
std::string check_user_script(const std::string& which, const std::string& source, const std::string& file = "");

}  // namespace lockcheck::sim
