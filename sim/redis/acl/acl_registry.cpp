#include "redis/acl/acl_registry.hpp"

#include <algorithm>

#include "redis/acl/sha256.hpp"

namespace lockcheck::mock {
namespace {

constexpr std::int64_t kLogGroupingWindowMs = 60000;  // entries this close in time are counted as one
constexpr std::size_t kLogGroupingScan = 10;

// Compares without an early exit, so reply timing does not reveal how much of a guess was right.
bool same_hash(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char difference = 0;
  for (std::size_t i = 0; i < a.size(); ++i) difference |= static_cast<unsigned char>(a[i] ^ b[i]);
  return difference == 0;
}

}  // namespace

AclRegistry::AclRegistry() : default_user_(std::make_shared<AclUser>()) {
  default_user_->name = "default";
  for (std::string_view rule : {"+@all", "~*", "&*", "on", "nopass"}) apply_rule(*default_user_, rule);
  users_.emplace("default", default_user_);
}

std::shared_ptr<AclUser> AclRegistry::find(std::string_view name) const {
  auto it = users_.find(name);
  return it == users_.end() ? nullptr : it->second;
}

std::optional<std::string> AclRegistry::set_user(const std::string& name, const std::vector<std::string>& rules) {
  std::shared_ptr<AclUser> existing = find(name);
  AclUser updated;
  updated.name = name;
  if (existing) updated = *existing;
  for (const std::string& rule : rules) {
    if (auto failed = apply_rule(updated, rule)) {
      return "ERR Error in ACL SETUSER modifier '" + rule + "': " + *failed;
    }
  }
  if (existing) {
    *existing = std::move(updated);  // connections authenticated as this user see the new rules at once
  } else {
    users_.emplace(name, std::make_shared<AclUser>(std::move(updated)));
  }
  return std::nullopt;
}

bool AclRegistry::remove(std::string_view name) {
  auto it = users_.find(name);
  if (it == users_.end()) return false;
  users_.erase(it);
  return true;
}

std::shared_ptr<AclUser> AclRegistry::check_credentials(std::string_view name, std::string_view password) const {
  std::shared_ptr<AclUser> user = find(name);
  if (!user || (user->flags & kUserOff)) return nullptr;
  if (user->nopass()) return user;
  const std::string hash = sha256_hex(password);
  bool matched = false;
  for (const std::string& candidate : user->password_hashes) matched |= same_hash(hash, candidate);
  return matched ? user : nullptr;
}

void AclRegistry::apply_requirepass(const std::string& password) {
  applied_requirepass_ = password;
  apply_rule(*default_user_, "resetpass");
  apply_rule(*default_user_, password.empty() ? std::string("nopass") : ">" + password);
}

void AclRegistry::log(AclLogEntry entry) {
  const std::size_t scan = std::min(kLogGroupingScan, log_.size());
  for (std::size_t i = 0; i < scan; ++i) {
    AclLogEntry& current = log_[i];
    const std::int64_t delta = current.created_ms - entry.created_ms;
    if (current.reason != entry.reason || current.context != entry.context ||
        (delta < 0 ? -delta : delta) > kLogGroupingWindowMs || current.object != entry.object ||
        current.username != entry.username) {
      continue;
    }
    AclLogEntry match = std::move(current);
    log_.erase(log_.begin() + static_cast<std::ptrdiff_t>(i));
    match.client_info = std::move(entry.client_info);
    match.created_ms = entry.created_ms;
    ++match.count;
    log_.push_front(std::move(match));
    return;
  }
  log_.push_front(std::move(entry));
  while (log_.size() > log_max_entries_) log_.pop_back();  // bounded by the entries there are
}

std::string AclRegistry::generate_password(std::int64_t bits) {
  static constexpr char kHex[] = "0123456789abcdef";
  const auto chars = static_cast<std::size_t>((bits + 3) / 4);
  std::string out;
  for (std::size_t i = 0; i < chars; ++i) {
    std::uint64_t z = (random_state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    out.push_back(kHex[(z ^ (z >> 31)) & 0xf]);
  }
  return out;
}

}  // namespace lockcheck::mock
