#include "acl_commands.hpp"

#include <map>
#include <vector>

#include "acl_categories.hpp"
#include "command.hpp"
#include "subcommands.hpp"
#include "text.hpp"

namespace lockcheck::mock {
namespace {

struct Universe {
  std::vector<AclCommand> commands;
  std::map<std::string, std::size_t, std::less<>> ids;
};

// A command 7.0.15 does not have (none today) is in no category but @all.
std::uint32_t categories(std::string_view full_name) { return acl_categories_of(full_name).value_or(0); }

Universe build() {
  Universe universe;
  const std::span<const Subcommand> subs = all_subcommands();
  for (const CommandSpec& spec : all_commands()) {
    const std::size_t id = universe.commands.size();
    universe.commands.push_back(AclCommand{std::string(spec.name), categories(spec.name), std::nullopt, 0, 0});
    universe.ids.emplace(std::string(spec.name), id);
    universe.commands[id].first_child = universe.commands.size();
    for (const Subcommand& sub : subs) {
      if (sub.container != spec.name) continue;
      std::string full = std::string(sub.container) + "|" + std::string(sub.name);
      universe.ids.emplace(full, universe.commands.size());
      universe.commands.push_back(AclCommand{full, categories(full), id, 0, 0});
    }
    universe.commands[id].child_count = universe.commands.size() - universe.commands[id].first_child;
  }
  return universe;
}

const Universe& universe() {
  static const Universe instance = build();
  return instance;
}

}  // namespace

std::span<const AclCommand> acl_commands() { return universe().commands; }

std::optional<std::size_t> acl_command_id(std::string_view lower_full_name) {
  const auto& ids = universe().ids;
  auto it = ids.find(lower_full_name);
  if (it == ids.end()) return std::nullopt;
  return it->second;
}

std::optional<std::size_t> acl_command_id_of(const Command& args) {
  std::optional<std::size_t> id = acl_command_id(to_lower(args[0]));
  if (!id) return std::nullopt;
  const AclCommand& command = acl_commands()[*id];
  if (command.child_count == 0 || args.size() < 2) return id;
  return acl_command_id(command.full_name + "|" + to_lower(args[1]));
}

}  // namespace lockcheck::mock
