#include "lockcheck/broken/set_nx_ex_del.hpp"


namespace lockcheck::broken {

Task<CallResult> SetNxExDelLock::release_call(const std::string& key, const std::string& /*token*/,
                                              const Request& /*request*/) {
  // THE BUG: no check that the key still holds our token.
  Command del{"DEL", key};
  return call(std::move(del));
}

}  // namespace lockcheck::broken
