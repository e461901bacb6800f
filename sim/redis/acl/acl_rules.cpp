// ACL SETUSER's rules (Redis 7.0.15's ACLSetUser / ACLSetSelector semantics and error texts).
#include <algorithm>
#include <utility>

#include "redis/acl/acl_categories.hpp"
#include "redis/acl/acl_commands.hpp"
#include "redis/acl/acl_key_access.hpp"
#include "redis/acl/acl_user.hpp"
#include "redis/acl/sha256.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock {
namespace {

constexpr std::string_view kUnknownName = "Unknown command or category name in ACL";
constexpr std::string_view kSyntax = "Syntax error";
constexpr std::string_view kAfterAllKeys =
    "Adding a pattern after the * pattern (or the 'allkeys' flag) is not valid and does not have any effect. Try "
    "'resetkeys' to start with an empty list of patterns";
constexpr std::string_view kAfterAllChannels =
    "Adding a pattern after the * pattern (or the 'allchannels' flag) is not valid and does not have any effect. "
    "Try 'resetchannels' to start with an empty list of channels";
constexpr std::string_view kNoSuchPassword = "The password you are trying to remove from the user does not exist";
constexpr std::string_view kBadHash =
    "The password hash must be exactly 64 characters and contain only lowercase hexadecimal characters";
constexpr std::string_view kFirstArgOfSubcommand = "Allowing first-arg of a subcommand is not supported";

bool has_spaces(std::string_view text) {
  return std::any_of(text.begin(), text.end(), [](char c) { return c == ' ' || c == '\0' || c == '\t' || c == '\n' || c == '\r'; });
}

bool valid_hash(std::string_view hash) {
  return hash.size() == 64 &&
         std::all_of(hash.begin(), hash.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

void set_bit(AclSelector& selector, std::size_t id, bool allow) {
  selector.allowed[id] = allow;
  if (!allow) selector.all_commands = false;
}

// Allowing or denying a container covers its subcommands; it drops the command's first-arg exceptions.
void change_permission(AclSelector& selector, std::size_t id, bool allow) {
  set_bit(selector, id, allow);
  selector.first_args.erase(id);
  const AclCommand& command = acl_commands()[id];
  for (std::size_t child : command.children) set_bit(selector, child, allow);
}

void change_category(AclSelector& selector, std::uint32_t category, bool allow) {
  const auto commands = acl_commands();
  for (std::size_t id = 0; id < commands.size(); ++id) {
    if (commands[id].categories & category) change_permission(selector, id, allow);
  }
}

// A selector's "(rule rule ...)" split at spaces.
std::vector<std::string> split_words(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  for (char c : text) {
    if (c == ' ') {
      if (!word.empty()) words.push_back(std::exchange(word, {}));
    } else {
      word.push_back(c);
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

std::optional<std::string> error(std::string_view text) { return std::string(text); }

std::optional<std::string> add_key_pattern(AclSelector& selector, std::string_view rule) {
  if (selector.all_keys) return error(kAfterAllKeys);
  std::uint8_t access = kKeyRead | kKeyWrite;
  std::size_t offset = 1;
  if (rule[0] == '%') {
    access = 0;
    for (; offset < rule.size(); ++offset) {
      const char c = static_cast<char>(rule[offset] & ~0x20);
      if (c == 'R' && !(access & kKeyRead)) {
        access |= kKeyRead;
      } else if (c == 'W' && !(access & kKeyWrite)) {
        access |= kKeyWrite;
      } else if (rule[offset] == '~') {
        ++offset;
        break;
      } else {
        return error(kSyntax);
      }
    }
  }
  const std::string_view pattern = offset <= rule.size() ? rule.substr(offset) : std::string_view{};
  if (has_spaces(pattern)) return error(kSyntax);
  auto same = std::find_if(selector.keys.begin(), selector.keys.end(),
                           [&](const AclKeyPattern& existing) { return existing.pattern == pattern; });
  if (same == selector.keys.end()) {
    selector.keys.push_back(AclKeyPattern{std::string(pattern), access});
  } else {
    same->access |= access;
  }
  selector.all_keys = false;
  return std::nullopt;
}

std::optional<std::string> allow_command(AclSelector& selector, std::string_view name) {
  const std::size_t bar = name.rfind('|');
  if (bar == std::string_view::npos) {
    auto id = acl_command_id(to_lower(name));
    if (!id) return error(kUnknownName);
    change_permission(selector, *id, true);
    return std::nullopt;
  }
  auto id = acl_command_id(to_lower(name.substr(0, bar)));
  if (!id) return error(kUnknownName);
  const AclCommand& command = acl_commands()[*id];
  if (command.parent) return error(kFirstArgOfSubcommand);
  const std::string_view sub = name.substr(bar + 1);
  if (sub.empty()) return error(kSyntax);
  if (!command.children.empty()) {
    auto sub_id = acl_command_id(to_lower(name));
    if (!sub_id) return error(kUnknownName);
    change_permission(selector, *sub_id, true);
    return std::nullopt;
  }
  std::vector<std::string>& args = selector.first_args[*id];
  if (std::none_of(args.begin(), args.end(), [&](const std::string& a) { return iequals(a, sub); })) {
    args.emplace_back(sub);
  }
  return std::nullopt;
}

}  // namespace

AclSelector::AclSelector() : allowed(acl_commands().size(), false) {}

namespace {
std::optional<std::string> apply_user_rule(AclUser& user, std::string_view rule);
}  // namespace

std::optional<std::string> apply_selector_rule(AclSelector& s, std::string_view rule) {
  if (iequals(rule, "allkeys") || rule == "~*") {
    s.all_keys = true;
    s.keys.clear();
  } else if (iequals(rule, "resetkeys")) {
    s.all_keys = false;
    s.keys.clear();
  } else if (iequals(rule, "allchannels") || rule == "&*") {
    s.all_channels = true;
    s.channels.clear();
  } else if (iequals(rule, "resetchannels")) {
    s.all_channels = false;
    s.channels.clear();
  } else if (iequals(rule, "allcommands") || iequals(rule, "+@all")) {
    s.allowed.assign(s.allowed.size(), true);
    s.all_commands = true;
    s.future_commands = true;
    s.first_args.clear();
  } else if (iequals(rule, "nocommands") || iequals(rule, "-@all")) {
    s.allowed.assign(s.allowed.size(), false);
    s.all_commands = false;
    s.future_commands = false;
    s.first_args.clear();
  } else if (rule[0] == '~' || rule[0] == '%') {
    return add_key_pattern(s, rule);
  } else if (rule[0] == '&') {
    if (s.all_channels) return error(kAfterAllChannels);
    const std::string_view pattern = rule.substr(1);
    if (has_spaces(pattern)) return error(kSyntax);
    if (std::find(s.channels.begin(), s.channels.end(), pattern) == s.channels.end()) s.channels.emplace_back(pattern);
    s.all_channels = false;
  } else if (rule[0] == '+' && (rule.size() < 2 || rule[1] != '@')) {
    return allow_command(s, rule.substr(1));
  } else if (rule[0] == '-' && (rule.size() < 2 || rule[1] != '@')) {
    auto id = acl_command_id(to_lower(rule.substr(1)));
    if (!id) return error(kUnknownName);
    change_permission(s, *id, false);
  } else if ((rule[0] == '+' || rule[0] == '-') && rule[1] == '@') {
    auto category = acl_category_bit(rule.substr(2));
    if (!category) return error(kUnknownName);
    change_category(s, *category, rule[0] == '+');
  } else {
    return error(kSyntax);
  }
  return std::nullopt;
}

std::optional<std::string> apply_rule(AclUser& user, std::string_view rule) {
  std::optional<std::string> failure = apply_user_rule(user, rule);
  const AclSelector& root = user.selectors[0];
  user.all_permitted = user.selectors.size() == 1 && root.all_commands && root.all_keys && root.all_channels;
  return failure;
}

namespace {

std::optional<std::string> apply_user_rule(AclUser& user, std::string_view rule) {
  if (rule.empty()) return std::nullopt;
  if (iequals(rule, "on")) {
    user.flags = static_cast<std::uint8_t>((user.flags | kUserOn) & ~kUserOff);
  } else if (iequals(rule, "off")) {
    user.flags = static_cast<std::uint8_t>((user.flags | kUserOff) & ~kUserOn);
  } else if (iequals(rule, "skip-sanitize-payload")) {
    user.flags = static_cast<std::uint8_t>((user.flags | kUserSkipSanitize) & ~kUserSanitize);
  } else if (iequals(rule, "sanitize-payload")) {
    user.flags = static_cast<std::uint8_t>((user.flags | kUserSanitize) & ~kUserSkipSanitize);
  } else if (iequals(rule, "nopass")) {
    user.flags |= kUserNopass;
    user.password_hashes.clear();
  } else if (iequals(rule, "resetpass")) {
    user.flags = static_cast<std::uint8_t>(user.flags & ~kUserNopass);
    user.password_hashes.clear();
  } else if (rule[0] == '>' || rule[0] == '#') {
    std::string hash = rule[0] == '>' ? sha256_hex(rule.substr(1)) : std::string(rule.substr(1));
    if (rule[0] == '#' && !valid_hash(hash)) return error(kBadHash);
    auto& hashes = user.password_hashes;
    if (std::find(hashes.begin(), hashes.end(), hash) == hashes.end()) hashes.push_back(std::move(hash));
    user.flags = static_cast<std::uint8_t>(user.flags & ~kUserNopass);
  } else if (rule[0] == '<' || rule[0] == '!') {
    const std::string hash = rule[0] == '<' ? sha256_hex(rule.substr(1)) : std::string(rule.substr(1));
    if (rule[0] == '!' && !valid_hash(hash)) return error(kBadHash);
    auto& hashes = user.password_hashes;
    auto it = std::find(hashes.begin(), hashes.end(), hash);
    if (it == hashes.end()) return error(kNoSuchPassword);
    hashes.erase(it);
  } else if (rule[0] == '(' && rule.back() == ')') {
    AclSelector selector;
    const std::vector<std::string> inner = split_words(rule.substr(1, rule.size() - 2));
    for (const std::string& word : inner) {
      if (auto failed = apply_selector_rule(selector, word)) return failed;
    }
    user.selectors.push_back(std::move(selector));
  } else if (iequals(rule, "clearselectors")) {
    user.selectors.resize(1);
  } else if (iequals(rule, "reset")) {
    for (std::string_view step : {"resetpass", "resetkeys", "resetchannels", "off", "sanitize-payload", "clearselectors", "-@all"}) {
      apply_rule(user, step);
    }
  } else {
    return apply_selector_rule(user.selectors[0], rule);
  }
  return std::nullopt;
}

}  // namespace
}  // namespace lockcheck::mock
