#include "redis/acl/acl_check.hpp"

#include <algorithm>

#include "redis/acl/acl_commands.hpp"
#include "redis/acl/acl_key_access.hpp"
#include "redis/util/glob.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock {
namespace {

struct ChannelUse {
  std::size_t index;
  bool is_pattern;
};

// Channels a command publishes to or subscribes to (unsubscribing needs no permission).
std::vector<ChannelUse> channel_uses(const Command& args) {
  const std::string name = to_lower(args[0]);
  std::vector<ChannelUse> uses;
  if (name == "publish" || name == "spublish") {
    uses.push_back({1, false});
  } else if (name == "subscribe" || name == "ssubscribe" || name == "psubscribe") {
    for (std::size_t i = 1; i < args.size(); ++i) uses.push_back({i, name == "psubscribe"});
  }
  return uses;
}

bool key_allowed(const AclSelector& selector, std::string_view key, std::uint8_t access) {
  if (selector.all_keys) return true;
  return std::any_of(selector.keys.begin(), selector.keys.end(), [&](const AclKeyPattern& pattern) {
    return (pattern.access & access) == access && glob_match(pattern.pattern, key);
  });
}

bool channel_allowed(const AclSelector& selector, std::string_view channel, bool is_pattern) {
  if (selector.all_channels) return true;
  // A pattern subscription needs that very pattern; a channel needs a pattern matching it.
  return std::any_of(selector.channels.begin(), selector.channels.end(), [&](const std::string& pattern) {
    return is_pattern ? pattern == channel : glob_match(pattern, channel);
  });
}

bool command_allowed(const AclSelector& selector, std::size_t id, const Command& args) {
  if (selector.all_commands || selector.allowed[id]) return true;
  auto first_args = selector.first_args.find(id);
  if (args.size() < 2 || first_args == selector.first_args.end()) return false;
  const std::size_t at = acl_commands()[id].parent ? 2 : 1;
  if (at >= args.size()) return false;
  return std::any_of(first_args->second.begin(), first_args->second.end(),
                     [&](const std::string& arg) { return iequals(arg, args[at]); });
}

AclVerdict check_selector(const AclSelector& selector, std::size_t id, const Command& args, bool no_auth) {
  if (!no_auth && !command_allowed(selector, id, args)) return {AclDenial::command, 0};
  if (!selector.all_keys) {
    for (const KeyUse& use : key_uses(args)) {
      if (!key_allowed(selector, args[use.index], use.access)) return {AclDenial::key, use.index};
    }
  }
  if (!selector.all_channels) {
    for (const ChannelUse& use : channel_uses(args)) {
      if (!channel_allowed(selector, args[use.index], use.is_pattern)) return {AclDenial::channel, use.index};
    }
  }
  return {};
}

}  // namespace

AclVerdict acl_check(const AclUser& user, const Command& args, bool no_auth) {
  const std::optional<std::size_t> id = acl_command_id_of(args);
  if (!id) return {AclDenial::command, 0};
  AclVerdict relevant{AclDenial::command, 0};
  for (const AclSelector& selector : user.selectors) {
    const AclVerdict verdict = check_selector(selector, *id, args, no_auth);
    if (verdict.allowed()) return verdict;
    if (verdict.denial > relevant.denial || (verdict.denial == relevant.denial && verdict.arg_index > relevant.arg_index)) {
      relevant = verdict;
    }
  }
  return relevant;
}

bool acl_channel_permitted(const AclUser& user, std::string_view channel, bool is_pattern) {
  return std::any_of(user.selectors.begin(), user.selectors.end(),
                     [&](const AclSelector& selector) { return channel_allowed(selector, channel, is_pattern); });
}

std::string acl_full_name(const Command& args) {
  const std::optional<std::size_t> id = acl_command_id_of(args);
  return id ? acl_commands()[*id].full_name : to_lower(args[0]);
}

}  // namespace lockcheck::mock
