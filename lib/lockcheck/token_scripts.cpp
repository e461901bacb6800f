#include "lockcheck/token_scripts.hpp"

#include "lockcheck/scripts.hpp"

namespace lockcheck {

const Script& token_release_script() {
  static const Script script(scripts::token_release);
  return script;
}

const Script& token_renew_script() {
  static const Script script(scripts::token_renew);
  return script;
}

const Script& token_reclaim_script() {
  static const Script script(scripts::token_reclaim);
  return script;
}

}  // namespace lockcheck
