#include "redis/acl/acl_key_access.hpp"

#include <algorithm>

#include "redis/command_table/command.hpp"
#include "redis/command_table/command_keys.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock {
namespace {

std::uint8_t parse_access(std::string_view word) {
  std::uint8_t access = 0;
  if (word.find('R') != std::string_view::npos) access |= kKeyRead;
  if (word.find('W') != std::string_view::npos) access |= kKeyWrite;
  return access;
}

// The access of each key spec, in spec order, from a row's words (CommandSpec::key_access).
std::vector<std::uint8_t> spec_access(std::string_view words) {
  std::vector<std::uint8_t> out;
  std::string_view rest = words;
  // One word per spec: at most words.size() rounds.
  for (std::size_t round = 0; round <= words.size() && !rest.empty(); ++round) {
    const std::size_t space = rest.find(' ');
    out.push_back(parse_access(rest.substr(0, space)));
    rest = space == std::string_view::npos ? std::string_view{} : rest.substr(space + 1);
  }
  return out;
}

// A container's subcommand that names a key (MEMORY USAGE, OBJECT ENCODING): that key, if `args` has it.
std::vector<KeyUse> subcommand_key_uses(const CommandSpec& spec, const Command& args) {
  std::vector<KeyUse> uses;
  const std::string sub = to_lower(args[1]);
  for (const SubcommandSpec& known : spec.subcommands) {
    if (known.name != sub || known.key_at <= 0) continue;
    const auto at = static_cast<std::size_t>(known.key_at);
    if (at < args.size()) uses.push_back(KeyUse{at, parse_access(known.key_access)});
  }
  return uses;
}

}  // namespace

std::vector<KeyUse> key_uses(const Command& args) {
  std::vector<KeyUse> uses;
  const CommandSpec* spec = find_command(args[0]);
  if (spec == nullptr) return uses;
  // A container's keys are its subcommands' (no container has keys of its own).
  if (!spec->subcommands.empty() && args.size() > 2) return subcommand_key_uses(*spec, args);
  const std::vector<std::uint8_t> specs = spec_access(spec->key_access);
  const std::optional<std::vector<std::size_t>> indexes = command_key_indexes(args);
  if (!indexes || specs.empty()) return uses;
  const bool is_set = spec->name == "set";
  for (std::size_t k = 0; k < indexes->size(); ++k) {
    std::uint8_t access = specs[std::min(k, specs.size() - 1)];
    // SET without GET only overwrites its key (7.0's setGetKeys: OW UPDATE); with GET it also reads it.
    if (is_set) {
      const bool reads = std::any_of(args.begin() + 3, args.end(), [](const std::string& a) { return iequals(a, "get"); });
      access = reads ? (kKeyRead | kKeyWrite) : kKeyWrite;
    }
    uses.push_back(KeyUse{(*indexes)[k], access});
  }
  return uses;
}

}  // namespace lockcheck::mock
