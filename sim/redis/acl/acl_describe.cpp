// ACL LIST / GETUSER descriptions, rebuilt from a user's state as Redis 7.0.15 does (ACLDescribeUser).
#include <array>
#include <climits>

#include "redis/acl/acl_categories.hpp"
#include "redis/acl/acl_commands.hpp"
#include "redis/acl/acl_key_access.hpp"
#include "redis/acl/acl_user.hpp"

namespace lockcheck::mock {
namespace {

void count_category(const AclSelector& selector, std::uint32_t category, std::size_t& on, std::size_t& off) {
  on = off = 0;
  const auto commands = acl_commands();
  for (std::size_t id = 0; id < commands.size(); ++id) {
    if (!(commands[id].categories & category)) continue;
    (selector.allowed[id] ? on : off) += 1;
  }
}

std::string pattern_string(const AclKeyPattern& key) {
  if (key.access == (kKeyRead | kKeyWrite)) return "~" + key.pattern;
  if (key.access == kKeyRead) return "%R~" + key.pattern;
  return "%W~" + key.pattern;
}

}  // namespace

std::vector<std::string_view> user_flag_names(std::uint8_t flags) {
  constexpr std::array<std::pair<std::uint8_t, std::string_view>, 5> kNames = {{
      {kUserOn, "on"}, {kUserOff, "off"}, {kUserNopass, "nopass"}, {kUserSkipSanitize, "skip-sanitize-payload"},
      {kUserSanitize, "sanitize-payload"}}};
  std::vector<std::string_view> names;
  for (const auto& [bit, name] : kNames) {
    if (flags & bit) names.push_back(name);
  }
  return names;
}

std::string describe_command_rules(const AclSelector& selector) {
  // As 7.0 does: start from +@all (if the selector may run future commands) or -@all, apply on a "fake"
  // selector whichever category fits the remaining differences best, then fix single commands.
  const bool additive = !selector.future_commands;
  std::string rules = additive ? "-@all " : "+@all ";
  AclSelector fake;
  apply_selector_rule(fake, additive ? "-@all" : "+@all");
  AclSelector temp = selector;
  const auto names = acl_category_names();
  std::vector<bool> applied(names.size(), false);
  for (std::size_t round = 0; round < names.size(); ++round) {
    std::size_t best = names.size();
    std::size_t min_diff = INT_MAX, max_same = 0;
    for (std::size_t j = 0; j < names.size(); ++j) {
      if (applied[j]) continue;
      std::size_t on = 0, off = 0;
      count_category(temp, 1u << j, on, off);
      const std::size_t diff = additive ? off : on;
      const std::size_t same = additive ? on : off;
      if (same > diff && (diff < min_diff || (diff == min_diff && same > max_same))) {
        best = j;
        min_diff = diff;
        max_same = same;
      }
    }
    if (best == names.size()) break;
    const std::string category(names[best]);
    apply_selector_rule(fake, (additive ? "+@" : "-@") + category);
    apply_selector_rule(temp, (additive ? "-@" : "+@") + category);
    rules += (additive ? "+@" : "-@") + category + " ";
    applied[best] = true;
  }
  const auto commands = acl_commands();
  for (std::size_t id = 0; id < commands.size(); ++id) {
    const bool user_bit = selector.allowed[id];
    if (user_bit != fake.allowed[id]) {
      rules += (user_bit ? "+" : "-") + commands[id].full_name + " ";
      apply_selector_rule(fake, (user_bit ? "+" : "-") + commands[id].full_name);
    }
    auto first_args = selector.first_args.find(id);
    if (!user_bit && first_args != selector.first_args.end()) {
      for (const std::string& arg : first_args->second) rules += "+" + commands[id].full_name + "|" + arg + " ";
    }
  }
  rules.pop_back();
  return rules;
}

std::string describe_keys(const AclSelector& selector) {
  if (selector.all_keys) return "~*";
  std::string out;
  for (const AclKeyPattern& key : selector.keys) out += (out.empty() ? "" : " ") + pattern_string(key);
  return out;
}

std::string describe_channels(const AclSelector& selector) {
  if (selector.all_channels) return "&*";
  std::string out;
  for (const std::string& channel : selector.channels) out += (out.empty() ? "&" : " &") + channel;
  return out;
}

namespace {

std::string describe_selector(const AclSelector& selector) {
  std::string out;
  if (selector.all_keys) {
    out += "~* ";
  } else {
    for (const AclKeyPattern& key : selector.keys) out += pattern_string(key) + " ";
  }
  if (selector.all_channels) {
    out += "&* ";
  } else {
    out += "resetchannels ";
    for (const std::string& channel : selector.channels) out += "&" + channel + " ";
  }
  return out + describe_command_rules(selector);
}

}  // namespace

std::string describe_user(const AclUser& user) {
  std::string out;
  for (std::string_view flag : user_flag_names(user.flags)) out += std::string(flag) + " ";
  for (const std::string& hash : user.password_hashes) out += "#" + hash + " ";
  for (std::size_t i = 0; i < user.selectors.size(); ++i) {
    if (i == 0) {
      out += describe_selector(user.selectors[i]);
    } else {
      out += " (" + describe_selector(user.selectors[i]) + ")";
    }
  }
  return out;
}

}  // namespace lockcheck::mock
