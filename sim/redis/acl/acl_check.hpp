#pragma once
// Whether a user may run a command: its command bit (or first-arg exception), then each key with the access
// the command needs, then each published or subscribed channel, per selector, as 7.0.15's
// ACLCheckAllUserCommandPerm decides (any selector allowing it suffices; otherwise the most relevant denial).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "redis/acl/acl_user.hpp"
#include "lockcheck/reply.hpp"

namespace lockcheck::mock {

enum class AclDenial : std::uint8_t { none = 0, command = 1, key = 2, channel = 3, auth = 4 };

struct AclVerdict {
  AclDenial denial = AclDenial::none;
  std::size_t arg_index = 0;  // the denied key's or channel's argument
  bool allowed() const { return denial == AclDenial::none; }
};

// `args` is a known command that passed its arity check; `no_auth`: the command is flagged no-auth (AUTH,
// HELLO), which every user may run.
AclVerdict acl_check(const AclUser& user, const Command& args, bool no_auth);

// Whether some selector of `user` lets it use `channel` (a pattern subscription needs that very pattern).
bool acl_channel_permitted(const AclUser& user, std::string_view channel, bool is_pattern);

// The command's full name as Redis's errors and the ACL log give it ("get", "config|get").
std::string acl_full_name(const Command& args);

}  // namespace lockcheck::mock
