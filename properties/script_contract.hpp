#pragma once
// A user's lock script that broke the `script` variant's contract during a run (an answer outside 1, true, OK /
// 0, false, nil, or an error it raised itself): the library words the op's detail so (lib/lockcheck/variants/
// script_lock.hpp, kScriptContractBroken). Such a run says nothing about the lock: the script is bad input,
// and `lockcheck run` and `explore` stop on it (exit 2) instead of reporting unknown outcomes or server errors.
#include <cstdint>
#include <optional>
#include <string>

#include "properties/history.hpp"

namespace lockcheck::properties {

struct ContractBreach {
  std::int64_t t = 0;
  std::int64_t process = 0;
  std::string detail;  // names the script file, the line for an error, and the reply
};

// The first op of `history` whose detail reports a breach, or nothing.
std::optional<ContractBreach> first_script_contract_breach(const History& history);

// "t=2.793 s, process 2: release of lock 'lock' failed: ERR release.lua broke the lock script contract: ..."
std::string describe(const ContractBreach& breach);

}  // namespace lockcheck::properties
