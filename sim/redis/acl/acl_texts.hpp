#pragma once
// Redis 7.0.15's words for an ACL refusal, by where it happens.
#include <string>
#include <string_view>

#include "redis/acl/acl_check.hpp"

namespace lockcheck::mock {

// processCommand's -NOPERM reply to a client.
inline std::string acl_noperm_error(AclDenial denial, std::string_view full_name) {
  switch (denial) {
    case AclDenial::command:
      return "NOPERM this user has no permissions to run the '" + std::string(full_name) + "' command";
    case AclDenial::key:
      return "NOPERM this user has no permissions to access one of the keys used as arguments";
    case AclDenial::channel:
      return "NOPERM this user has no permissions to access one of the channels used as arguments";
    default:
      return "no permission";
  }
}

// getAclErrorMessage: the end of a script's "The user executing the script ..." error.
inline std::string acl_error_message(AclDenial denial) {
  switch (denial) {
    case AclDenial::command: return "can't run this command or subcommand";
    case AclDenial::key: return "can't access at least one of the keys mentioned in the command arguments";
    case AclDenial::channel: return "can't publish to the channel mentioned in the command";
    default: return "lacking the permissions for the command";
  }
}

// execCommand's reason when a queued command is no longer allowed.
inline std::string acl_exec_reason(AclDenial denial) {
  switch (denial) {
    case AclDenial::command: return "no permission to execute the command or subcommand";
    case AclDenial::key: return "no permission to touch the specified keys";
    case AclDenial::channel: return "no permission to access one of the channels used as arguments";
    default: return "no permission";
  }
}

}  // namespace lockcheck::mock
