#pragma once
// The token lock's scripts, shared by every variant that owns a key by a token: compare-and-delete,
// compare-and-pexpire, and the reclaim used after a lost acquire reply.
#include "lockcheck/script.hpp"

namespace lockcheck {

const Script& token_release_script();
const Script& token_renew_script();
const Script& token_reclaim_script();

}  // namespace lockcheck
