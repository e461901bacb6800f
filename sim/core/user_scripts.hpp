#pragma once
// Checks the user's lock scripts before a run: each must compile as Redis's Lua 5.1 would (the mock
// rejects 5.4-only syntax by name) and keep the return-type contract of the `script` variant on a probe.
#include <string>

#include "lockcheck/variants/script_lock.hpp"

namespace lockcheck::sim {

// "" when `source` is fine as the `which` script ("acquire", "release" or "renew"); else what is wrong,
// naming the script as `file` ("renew.lua:3"; default "<which>.lua") where Redis would say "user_script:3".
std::string check_user_script(const std::string& which, const std::string& source, const std::string& file = "");

}  // namespace lockcheck::sim
