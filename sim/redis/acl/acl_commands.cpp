#include "redis/acl/acl_commands.hpp"

#include <map>
#include <vector>

#include "redis/acl/acl_categories.hpp"
#include "redis/command_table/command.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock {
namespace {

struct Universe {
  std::vector<AclCommand> commands;
  std::map<std::string, std::size_t, std::less<>> ids;
};

// 7.0.15's commands and subcommands, and the mock's own (a command 7.0.15 lacks is in no category but @all).
Universe build() {
  std::map<std::string, std::uint32_t> categories;
  for (const NamedCategories& entry : acl_category_table()) categories.emplace(std::string(entry.full_name), entry.categories);
  for (const CommandSpec& spec : all_commands()) {
    categories.emplace(std::string(spec.name), 0);
    for (const SubcommandSpec& sub : spec.subcommands) {
      categories.emplace(std::string(spec.name) + "|" + std::string(sub.name), 0);
    }
  }
  Universe universe;
  for (const auto& [name, bits] : categories) {
    const std::size_t id = universe.commands.size();
    universe.commands.push_back(AclCommand{name, bits, std::nullopt, {}});
    universe.ids.emplace(name, id);
  }
  for (std::size_t id = 0; id < universe.commands.size(); ++id) {
    AclCommand& command = universe.commands[id];
    const std::size_t bar = command.full_name.find('|');
    if (bar == std::string::npos) continue;
    auto parent = universe.ids.find(command.full_name.substr(0, bar));
    if (parent == universe.ids.end()) continue;
    command.parent = parent->second;
    universe.commands[parent->second].children.push_back(id);
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
  if (command.children.empty() || args.size() < 2) return id;
  return acl_command_id(command.full_name + "|" + to_lower(args[1]));
}

}  // namespace lockcheck::mock
