#include "lockcheck/variants/capabilities.hpp"

#include <algorithm>
#include <initializer_list>

#include "lockcheck/variants/registry.hpp"

namespace lockcheck {
namespace {

bool one_of(const std::string& id, std::initializer_list<const char*> ids) {
  return std::any_of(ids.begin(), ids.end(), [&](const char* each) { return id == each; });
}

}  // namespace

bool renews_in_background(const std::string& id) {
  return one_of(id, {"watchdog", "watchdog-unchecked", "client-reentrant", "redisson-like"});
}

bool has_shared_mode(const std::string& id) { return one_of(id, {"rw-owned", "rw-two-keys", "rw-hash-timestamps"}); }

bool hands_out_fencing_tokens(const std::string& id) { return id == "fenced"; }

bool is_reentrant(const std::string& id) {
  return one_of(id, {"reentrant-hash", "reentrant-maxttl", "appid-thread", "client-reentrant", "redisson-like"});
}

std::vector<std::string> variants_where(bool (*has)(const std::string&)) {
  std::vector<std::string> out;
  for (const std::string& id : variant_ids()) {
    if (has(id)) out.push_back(id);
  }
  return out;
}

}  // namespace lockcheck
