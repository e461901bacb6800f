#pragma once
// A node's ACL users (always including "default") and its ACL LOG, as Redis 7.0.15 keeps them.
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "redis/acl/acl_check.hpp"
#include "redis/acl/acl_user.hpp"

namespace lockcheck::mock {

enum class AclLogContext : std::uint8_t { toplevel, multi, lua };

struct AclLogEntry {
  std::int64_t count = 1;
  AclDenial reason = AclDenial::command;
  AclLogContext context = AclLogContext::toplevel;
  std::string object;    // the command's full name, the key, the channel, or AUTH's command name
  std::string username;
  std::int64_t created_ms = 0;
  std::string client_info;  // the CLIENT LIST line of the client, as the entry's last occurrence saw it
};

class AclRegistry {
 public:
  AclRegistry();

  std::shared_ptr<AclUser> find(std::string_view name) const;
  const std::shared_ptr<AclUser>& default_user() const { return default_user_; }
  const std::map<std::string, std::shared_ptr<AclUser>, std::less<>>& users() const { return users_; }
  // ACL SETUSER: all rules apply or none; the reply's error text on failure.
  std::optional<std::string> set_user(const std::string& name, const std::vector<std::string>& rules);
  bool remove(std::string_view name);
  // The user `name` when `password` opens it (enabled, nopass or a matching hash); null otherwise.
  std::shared_ptr<AclUser> check_credentials(std::string_view name, std::string_view password) const;
  // requirepass is the default user's password (ACLUpdateDefaultUserPassword); an empty one = nopass.
  void apply_requirepass(const std::string& password);
  const std::string& applied_requirepass() const { return applied_requirepass_; }
  // CONFIG SET requirepass happened: from then on the configuration, not a connection's copy, is the password.
  bool requirepass_configured() const { return requirepass_configured_; }
  void mark_requirepass_configured() { requirepass_configured_ = true; }

  // ACL LOG: a new entry, or one more count of a matching entry of the last 60 s (among the 10 newest).
  void log(AclLogEntry entry);
  const std::deque<AclLogEntry>& log_entries() const { return log_; }
  void reset_log() { log_.clear(); }
  // acllog-max-len: the oldest entries beyond it are dropped (at the next entry, as 7.0 trims).
  void set_log_max_entries(std::size_t entries) { log_max_entries_ = entries; }
  // ACL GENPASS: `bits` of seeded pseudo-random hex (deterministic per node, not a secret).
  std::string generate_password(std::int64_t bits);

 private:
  std::map<std::string, std::shared_ptr<AclUser>, std::less<>> users_;
  std::shared_ptr<AclUser> default_user_;
  std::string applied_requirepass_;
  bool requirepass_configured_ = false;
  std::deque<AclLogEntry> log_;
  std::size_t log_max_entries_ = 128;  // acllog-max-len's default
  std::uint64_t random_state_ = 0xac1;  // splitmix64: GENPASS's seeded source
};

}  // namespace lockcheck::mock
