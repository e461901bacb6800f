#pragma once
// Redis 7.0.15's ACL command categories: the bit of each category (in ACL CAT's order) and the categories of
// every command and subcommand by its full name ("config|get"). The single source for ACL rules (+@read),
// ACL CAT and COMMAND INFO.
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace lockcheck::mock {

enum AclCategory : std::uint32_t {
  kAclKeyspace = 1u << 0, kAclRead = 1u << 1, kAclWrite = 1u << 2, kAclSet = 1u << 3, kAclSortedset = 1u << 4, kAclList = 1u << 5,
  kAclHash = 1u << 6, kAclString = 1u << 7, kAclBitmap = 1u << 8, kAclHyperloglog = 1u << 9, kAclGeo = 1u << 10,
  kAclStream = 1u << 11, kAclPubsub = 1u << 12, kAclAdmin = 1u << 13, kAclFast = 1u << 14, kAclSlow = 1u << 15,
  kAclBlocking = 1u << 16, kAclDangerous = 1u << 17, kAclConnection = 1u << 18, kAclTransaction = 1u << 19,
  kAclScripting = 1u << 20,
};

// The category names in ACL CAT's order; bit i of a mask is names[i].
std::span<const std::string_view> acl_category_names();
// The bit of a category name (case-insensitive); nullopt when Redis 7.0 has no such category.
std::optional<std::uint32_t> acl_category_bit(std::string_view name);
// The categories of a command ("get") or subcommand ("config|get") as 7.0.15 declares them; nullopt for a
// name 7.0.15 does not have.
std::optional<std::uint32_t> acl_categories_of(std::string_view full_name);

struct NamedCategories {
  std::string_view full_name;
  std::uint32_t categories;
};
// Every command and subcommand of 7.0.15, sorted by full name.
std::span<const NamedCategories> acl_category_table();

}  // namespace lockcheck::mock
