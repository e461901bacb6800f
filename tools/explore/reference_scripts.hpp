#pragma once
// The reference of a user's Lua scripts: the token scripts of scenarios/scripts/ (token_acquire.lua,
// token_release.lua, token_renew.lua), built into the binary from those files (tools/explore/CMakeLists.txt
// generates reference_scripts.cpp), so that the reference runs as the user's scripts do: variant `script`,
// through the same script path, its commands taking the same simulated time.
#include "lockcheck/variants/script_lock.hpp"

namespace lockcheck::explore {

// The token scripts; with `with_renew`, token_renew.lua as the renew script too.
UserScripts reference_token_scripts(bool with_renew);

}  // namespace lockcheck::explore
