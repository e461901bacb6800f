#pragma once
// An ACL user as Redis 7.0 keeps it: flags, password hashes, and selectors (the root one and those added with
// "(...)"), each a command bitmap with first-arg exceptions, key patterns with read/write access, and channel
// patterns. ACL SETUSER's rules change it (apply_rule); ACL LIST and GETUSER describe it.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lockcheck::mock {

struct AclKeyPattern {
  std::string pattern;
  std::uint8_t access;  // KeyAccess bits (acl_key_access.hpp): %R~ read, %W~ write, ~ both
  bool operator==(const AclKeyPattern&) const = default;
};

struct AclSelector {
  bool all_commands = false;     // +@all and nothing denied since: the command check is skipped
  bool future_commands = false;  // Redis's reserved bit: +@all sets it, only -@all clears it (ACL LIST's +@all)
  std::vector<bool> allowed;  // by acl_commands() id
  std::map<std::size_t, std::vector<std::string>> first_args;  // +select|0: one first argument of a denied command
  bool all_keys = false;
  std::vector<AclKeyPattern> keys;
  bool all_channels = false;
  std::vector<std::string> channels;

  AclSelector();
  bool operator==(const AclSelector&) const = default;
};

enum AclUserFlag : std::uint8_t {
  kUserOn = 1u << 0, kUserOff = 1u << 1, kUserNopass = 1u << 2, kUserSkipSanitize = 1u << 3, kUserSanitize = 1u << 4,
};

struct AclUser {
  std::string name;
  std::uint8_t flags = kUserOff;
  std::vector<std::string> password_hashes;  // SHA-256 hex, in the order added
  std::vector<AclSelector> selectors{AclSelector{}};  // [0] is the root selector

  // Every command, key and channel: the ACL checks can be skipped (the default user's fast path). Kept by
  // apply_rule, read once per command.
  bool all_permitted = false;
  bool unrestricted() const { return all_permitted; }
  bool enabled() const { return (flags & kUserOn) != 0; }
  bool nopass() const { return (flags & kUserNopass) != 0; }
};

// Applies one ACL SETUSER rule; the error text (after "Error in ACL SETUSER modifier '...': ") on failure.
std::optional<std::string> apply_rule(AclUser& user, std::string_view rule);
std::optional<std::string> apply_selector_rule(AclSelector& selector, std::string_view rule);
// The user ACL LIST prints after "user <name> ": flags, #hashes, the root selector, then "(...)" selectors.
std::string describe_user(const AclUser& user);
// A selector's command rules as 7.0 rebuilds them from its bitmap: "+@all"/"-@all", best-fitting categories,
// then single commands.
std::string describe_command_rules(const AclSelector& selector);
// Keys ("~a %R~b") and channels ("&c") as GETUSER shows them.
std::string describe_keys(const AclSelector& selector);
std::string describe_channels(const AclSelector& selector);
// The flag names set in `flags`, in 7.0's order.
std::vector<std::string_view> user_flag_names(std::uint8_t flags);

}  // namespace lockcheck::mock
